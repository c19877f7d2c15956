# Stand-in for postgres:15: Debian's PostgreSQL 15 with an entry point that honours the
# official image's POSTGRES_USER, POSTGRES_PASSWORD and POSTGRES_DB and keeps its data in
# /var/lib/postgresql/data.
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/*
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint.sh
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
