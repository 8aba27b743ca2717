"""The site's JSON API (django-ninja), served under ``/api/``: the public reads (rankings, players, the
calculator) and the upload API scoring programs call with a club's or region's token. Its OpenAPI schema is
``/api/openapi.json``, the browsable documentation ``/api/docs``."""
