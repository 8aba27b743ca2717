"""The admin's page of the office's job records, and the jobs it starts."""
