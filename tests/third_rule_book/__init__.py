"""A third rule book that exists only in the tests ("table points", code ``tbl``): a plugin of the scheme registry
(:mod:`federation.schemes`) built from the outside, to show that a rule book is added by its package alone."""
