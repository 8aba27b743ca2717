"""The rule book of DBf (Denmark): a plugin of the scheme registry (:mod:`federation.schemes`)."""
