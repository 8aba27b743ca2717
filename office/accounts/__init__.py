"""Logins: the site's own password reset (mails through the outbox) and a player's own login."""
