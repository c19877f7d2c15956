# Stand-in for nginx:1.27: Debian's nginx with the stream module (the official image has it
# built in; Debian loads it as a module, so the entry point prepends load_module to the
# mounted /etc/nginx/nginx.conf).
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends nginx-light libnginx-mod-stream \
 && rm -rf /var/lib/apt/lists/*
STOPSIGNAL SIGQUIT
CMD ["/bin/sh", "-c", "{ echo 'load_module /usr/lib/nginx/modules/ngx_stream_module.so;'; cat /etc/nginx/nginx.conf; } > /tmp/lb.conf && exec nginx -c /tmp/lb.conf -g 'daemon off;'"]
