"""A player's own page of account and notices: the monthly statement by e-mail, opted
into and out of on "My page" or by the one-click link in every statement."""
