# Fieldpost's Discord bot. Build: docker build -t fieldpost .
# Run:   docker run -e DISCORD_TOKEN=... -v fieldpost-data:/data fieldpost
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    FIELDPOST_HOME=/app \
    FIELDPOST_DB=/data/fieldpost.db \
    FIELDPOST_LOG_LEVEL=INFO

WORKDIR /app

# the content (assets/, campaigns/) is read from FIELDPOST_HOME, so it stays in /app
COPY pyproject.toml README.md ./
COPY engine ./engine
COPY bot ./bot
COPY assets ./assets
COPY campaigns ./campaigns

RUN pip install --no-cache-dir . \
    && useradd --create-home --uid 10001 --user-group fieldpost \
    && mkdir -p /data \
    && chown fieldpost:fieldpost /data

USER 10001:10001
VOLUME ["/data"]

CMD ["fieldpost", "bot"]
