FROM python:3.11-slim
WORKDIR /srv/trellis
COPY pyproject.toml README.md ./
COPY app ./app
COPY schema ./schema
COPY graph ./graph
COPY store ./store
RUN pip install --no-cache-dir . && useradd --system --home /srv/trellis trellis
USER trellis
EXPOSE 8000
CMD ["trellis", "serve"]
