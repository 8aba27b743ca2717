"""The office: officers, who may act for what (``access``), "My office" and the admin of the federation's and
the clubs' records, scoped by ``access``."""
