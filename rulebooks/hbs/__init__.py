"""The rule book of HBS (Croatia): a plugin of the scheme registry (:mod:`federation.schemes`)."""
