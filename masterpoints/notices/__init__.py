"""A player's own page of account and notices (issues 18 and 19): the monthly statement by e-mail, opted
into and out of on "My page" or by the one-click link in every statement."""
