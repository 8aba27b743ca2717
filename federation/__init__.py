"""The federation's own records: federations, regions, players, rule sets, the audit log, the scheme registry."""
