"""The rule books, one plugin each: a Django app that registers its scheme with :mod:`federation.schemes`.

A rule book's package holds what the registry reads of it (:class:`federation.schemes.SchemeInfo`); the
site asks the registry, never a plugin. Adding a rule book is its package and one line of
``INSTALLED_APPS``.
"""
