# Stand-in for prom/prometheus: Debian's Prometheus, run as the official image runs it (the
# configuration mounted at /etc/prometheus, the data under /prometheus).
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/* \
 && install -d -o prometheus /prometheus
USER prometheus
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus", "--storage.tsdb.path=/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml"]
