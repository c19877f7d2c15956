# Stand-in for minio/minio and minio/mc: moto's S3 server (PyPI, the same version as the
# multi-node test's) on port 9000, with curl for the bucket set-up.
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && python3 -m venv /opt/moto \
 && /opt/moto/bin/pip install --quiet 'moto[server]==5.2.5'
EXPOSE 9000
CMD ["/opt/moto/bin/moto_server", "-H", "0.0.0.0", "-p", "9000"]
