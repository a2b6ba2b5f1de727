# Fieldpost's Discord bot. Build: docker build -t fieldpost .
# Run:   docker run -e DISCORD_TOKEN=... -v fieldpost-data:/data fieldpost
# Several processes over PostgreSQL: compose.yaml beside this file (README, "Running at scale").
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    FIELDPOST_DB=/data/fieldpost.db \
    FIELDPOST_LOG_LEVEL=INFO \
    FIELDPOST_HTTP_HOST=0.0.0.0

WORKDIR /app

# the content (assets/, campaigns/ with the fonts, and the players' pages of docs/) goes into the
# installed package as data (engine/shipped links to it), so the image needs no FIELDPOST_HOME
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY assets ./assets
COPY campaigns ./campaigns
COPY docs/quick-reference.md docs/learn.md ./docs/
COPY docs/learn ./docs/learn

# the postgres extra: FIELDPOST_DB=postgresql://... works in the same image
RUN pip install --no-cache-dir "./[postgres]" \
    && useradd --create-home --uid 10001 --user-group fieldpost \
    && mkdir -p /data \
    && chown fieldpost:fieldpost /data

USER 10001:10001
# the shipped content's parsed YAML, kept in the image: every container starts with a warm
# content cache (docs/content.md), not only the first run on a volume
ENV FIELDPOST_CACHE=/home/fieldpost/.cache/fieldpost
RUN python -c "import engine; engine.load_catalog()"
VOLUME ["/data"]

# with FIELDPOST_HTTP_PORT set, healthy while /healthz answers 200 (gateway up, store answering)
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, sys, urllib.request; port = os.environ.get('FIELDPOST_HTTP_PORT'); sys.exit(0) if not port else urllib.request.urlopen(f'http://127.0.0.1:{port}/healthz', timeout=4)"]

CMD ["fieldpost", "bot"]
