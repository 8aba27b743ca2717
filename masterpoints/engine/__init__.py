"""The points engine: pure rules for DBf (``dbf``) and HBS (``hbs``), no Django, exact arithmetic.

Rule sets are values passed in; every function that implements a rule cites its section or reading id.
"""
