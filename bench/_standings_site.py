"""Settings for the gunicorn the standings benchmark starts: the site itself plus one trivial view, the
baseline for the latency figures (``bench/standings.py``). Never used outside the benchmark."""

from config.settings import *  # noqa: F403

ROOT_URLCONF = "_standings_urls"
