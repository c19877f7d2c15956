//! The settings' `--help` text: every setting's environment name and meaning, kept in step
//! with [`Settings`](super::Settings) by a unit test.

/// `(NAME, meaning)` for every setting; `--help` lists these as `VITRINE_<NAME>`.
pub const SETTINGS_HELP: &[(&str, &str)] = &[
    (
        "DATABASE_URL",
        "sqlite:… or postgres:… URL [default: sqlite in DATA_DIR/vitrine.db]",
    ),
    (
        "DATA_DIR",
        "local object store, SQLite file and spools [default: data]",
    ),
    (
        "OBJECT_STORE_URL",
        "S3-compatible store, e.g. s3://bucket (AWS_* variables give endpoint and keys); unset: DATA_DIR/objects",
    ),
    (
        "CONTROL_LISTEN",
        "control plane address (API and dashboard) [default: 127.0.0.1:8000]",
    ),
    (
        "EDGE_HTTP_LISTEN",
        "edge HTTP address for visitors [default: 127.0.0.1:8080]",
    ),
    (
        "EDGE_HTTPS_LISTEN",
        "edge HTTPS address for visitors [default: 127.0.0.1:8443]",
    ),
    (
        "EDGE_ADMIN_LISTEN",
        "edge health and metrics address [default: 127.0.0.1:9090]",
    ),
    (
        "PLATFORM_DOMAIN",
        "preview sites answer at {slug}.PLATFORM_DOMAIN; in production a registrable domain other than PUBLIC_URL's [default: localhost]",
    ),
    (
        "PUBLIC_URL",
        "the dashboard's public URL, used in e-mails; must be https unless the host is localhost or a loopback address, since the session cookie is always Secure [default: http://localhost:8000]",
    ),
    (
        "PUBLIC_IP",
        "address custom domains point their A record at [default: 127.0.0.1]",
    ),
    (
        "CNAME_TARGET",
        "host custom domains may CNAME to [default: sites.PLATFORM_DOMAIN]",
    ),
    (
        "PREVIEW_URL_TEMPLATE",
        "preview address shown to users, {slug} is replaced [default: http://{slug}.PLATFORM_DOMAIN:EDGE_HTTP_PORT]",
    ),
    (
        "SMTP_URL",
        "smtp://user:pass@host:port (smtps:// for TLS); unset: e-mails are written to the log",
    ),
    (
        "MAIL_FROM",
        "sender of outgoing e-mail [default: Vitrine <no-reply@localhost>]",
    ),
    (
        "ACME_DIRECTORY_URL",
        "ACME directory for certificates; unset: no certificates are ordered",
    ),
    (
        "ACME_CA_BUNDLE",
        "PEM file of extra roots to trust when talking to the ACME server",
    ),
    (
        "DNS_NAMESERVERS",
        "comma-separated ip[:port] list used for domain verification; unset: system resolver",
    ),
    (
        "ACME_CONTACT",
        "e-mail address given to the ACME server for the account; unset: none",
    ),
    (
        "ACME_PREVIEW_HOSTS",
        "also order certificates on demand for preview hosts {slug}.PLATFORM_DOMAIN [default: false]",
    ),
    (
        "ACME_RENEW_BEFORE_SECS",
        "renew a certificate this long before it expires [default: 2592000 (30 days)]",
    ),
    (
        "ACME_RENEW_CHECK_SECS",
        "how often an edge looks for certificates due for renewal [default: 3600]",
    ),
    (
        "ACME_BACKOFF_BASE_SECS",
        "wait after a failed order, doubled per consecutive failure up to a day [default: 60]",
    ),
    (
        "ACME_ORDERS_PER_HOUR",
        "cap on new ACME orders per hour across all edge nodes [default: 100]",
    ),
    (
        "ACME_ORDERS_PER_PROJECT_PER_HOUR",
        "cap on ACME orders per hour for one project's names, so no site can use up the others' share [default: 10]",
    ),
    (
        "ACME_ORDERS_PER_ACCOUNT_PER_HOUR",
        "cap on ACME orders per hour for one account's projects (a business counts as one account), kept below ACME_ORDERS_PER_HOUR so no tenant can starve the others' certificates [default: 30]",
    ),
    (
        "ACME_ISSUE_WAIT_MS",
        "how long a TLS handshake for a name without a certificate waits for its issuance [default: 30000]",
    ),
    (
        "DOMAIN_RECHECK_BASE_SECS",
        "a pending custom domain is checked again this long after it was saved, then twice as long after each check, up to 6 hours, for 30 days [default: 60]",
    ),
    (
        "SLUG_COOLING_OFF_DAYS",
        "a preview slug given up (project deleted or slug changed) is held this long for its owner before anyone else may take it [default: 30]",
    ),
    (
        "PREVIEW_CERT_FILE",
        "PEM certificate chain (a wildcard for *.PLATFORM_DOMAIN) served for preview hosts",
    ),
    ("PREVIEW_KEY_FILE", "PEM private key of PREVIEW_CERT_FILE"),
    (
        "EDGE_CERT_CACHE_ENTRIES",
        "certificates an edge keeps in memory; others load from the database on first handshake [default: 10000]",
    ),
    (
        "FONTS_URL",
        "Fontsource-layout font files ({FONTS_URL}/{family}/latin-{weight}-{style}.woff2) copied into published sites [default: https://cdn.jsdelivr.net/fontsource/fonts]",
    ),
    (
        "FETCH_ALLOW_PRIVATE",
        "let outbound fetches (fonts) reach private, loopback and link-local addresses [default: false]",
    ),
    (
        "CHROMIUM_PATH",
        "headless Chromium for block and template thumbnails [default: /usr/bin/chromium when it exists]",
    ),
    (
        "SITE_SCREENSHOTS",
        "picture each published site's home page with Chromium after a publish, for the project cards [default: true]",
    ),
    (
        "SITE_SCREENSHOTS_PER_ACCOUNT_PER_HOUR",
        "site pictures one account (a user, or a whole business) may have taken in an hour; past it a publish keeps the card's last picture [default: 20]",
    ),
    (
        "CHROMIUM_MEMORY_MB",
        "memory of each Chromium that pictures a site or a block, all its processes together (its cgroup's bound; each process's RLIMIT_DATA without cgroups) [default: 512]",
    ),
    (
        "LIBRARY_THUMBNAILS",
        "picture the library's blocks and templates with Chromium in the background, after start-up and when a block changes [default: true]",
    ),
    (
        "CHROMIUM_USER",
        "uid:gid Chromium runs as when the control plane runs as root, so its sandbox works [default: 65534:65534 (nobody)]",
    ),
    (
        "RENDER_WORKER",
        "binary whose `__render-worker` mode renders owners' templates in a sandboxed process [default: the running binary]",
    ),
    (
        "RENDER_WORKERS",
        "template renders in flight at once per process (each in its own worker process); 0: one per core [default: 0]",
    ),
    (
        "RENDER_MEMORY_MB",
        "memory limit of one render's worker process (heap and address space beyond its start) [default: 64]",
    ),
    (
        "RENDER_WORKERS_PER_ACCOUNT",
        "render workers one account (a business counts as one) may hold at once; 0: half the workers, at least one [default: 0]",
    ),
    (
        "RENDER_CPU_MS",
        "CPU time limit of one render, measured by its worker process [default: 100]",
    ),
    (
        "RENDER_DEADLINE_MS",
        "wall-clock limit of one render from the moment its worker starts [default: 5000]",
    ),
    (
        "RENDER_QUEUE_MS",
        "longest a render waits for a free worker before it is answered 503 (a publish waits up to 60 s) [default: 2000]",
    ),
    (
        "CANVAS_RENDERS_PER_MINUTE",
        "editor canvas and preview renders per account a minute; more are answered 429 [default: 120]",
    ),
    (
        "FETCHES_PER_ACCOUNT_PER_MINUTE",
        "outside addresses API-fed lists may fetch per account a minute (answers are reused for 60 s); past it lists are empty and /api/fetch answers 429 [default: 60]",
    ),
    (
        "STRIPE_PUBLIC_KEY",
        "payment provider's publishable key; with the secret key, enables the card on file [default: unset]",
    ),
    (
        "STRIPE_SECRET_KEY",
        "payment provider's secret key [default: unset]",
    ),
    (
        "STRIPE_API_URL",
        "payment provider's API [default: https://api.stripe.com]",
    ),
    (
        "STRIPE_JS_URL",
        "the card form's script, loaded by the dashboard [default: https://js.stripe.com/v3/]",
    ),
    (
        "CONVERSION_API_URL",
        "Facebook Conversion API (Graph API) base for server-side Lead events [default: https://graph.facebook.com/v21.0]",
    ),
    (
        "DASHBOARD_DIR",
        "built dashboard served by the control plane [default: dashboard/dist]",
    ),
    (
        "UPLOAD_MAX_BYTES",
        "largest accepted upload [default: 10485760]",
    ),
    (
        "STORAGE_QUOTA_BYTES",
        "bytes of uploads one account (a business counts as one) may keep [default: 1073741824]",
    ),
    (
        "STORAGE_QUOTA_OBJECTS",
        "uploaded files one account may keep [default: 10000]",
    ),
    (
        "UPLOADS_PER_MINUTE",
        "uploads one account may make a minute, per control plane [default: 60]",
    ),
    (
        "UPLOAD_GRACE_SECS",
        "how long an upload that nothing references is kept before it is deleted [default: 86400]",
    ),
    (
        "UPLOAD_COLLECT_INTERVAL_SECS",
        "how often the control plane deletes unreferenced uploads past their grace [default: 3600]",
    ),
    (
        "RECORDS_PER_ACCOUNT",
        "records (of all collections) one account may keep [default: 100000]",
    ),
    (
        "IMPORT_MAX_BYTES",
        "largest accepted CSV or JSON import file [default: 33554432]",
    ),
    (
        "JSON_BODY_MAX_BYTES",
        "largest accepted JSON body [default: 4194304]",
    ),
    (
        "SESSION_TTL_HOURS",
        "how long a sign-in lasts [default: 720]",
    ),
    (
        "RESET_TOKEN_TTL_SECS",
        "how long a password-reset link works [default: 3600]",
    ),
    (
        "LOGIN_ATTEMPTS_PER_MINUTE",
        "failed sign-ins allowed per account from one client network (an IPv4 address or an IPv6 /64) per minute; also password-reset requests per account [default: 10]",
    ),
    (
        "LOGIN_FAILURES_PER_NETWORK_PER_MINUTE",
        "failed sign-ins (and password-reset requests) allowed per client network per minute, whatever the account [default: 50]",
    ),
    (
        "CONTROL_TRUSTED_PROXIES",
        "comma-separated IPs or CIDRs of load balancers in front of the control plane whose X-Forwarded-For gives the client address; unset: the TCP peer is the client [default: empty]",
    ),
    (
        "DEMO_EMAIL",
        "demo account created by `seed` and shown on the login screen; unset: none shown",
    ),
    ("DEMO_PASSWORD", "demo account password"),
    (
        "ADMIN_EMAIL",
        "administrator account created by `seed` [default: admin@vitrine.local]",
    ),
    (
        "ADMIN_PASSWORD",
        "administrator password for `seed`; unset: a random one is printed",
    ),
    ("LOG_FORMAT", "pretty or json [default: pretty]"),
    (
        "EDGE_SPOOL_DIR",
        "where the edge spools form submissions while the database is down [default: DATA_DIR/spool]",
    ),
    (
        "EDGE_FILE_CACHE_BYTES",
        "memory the edge may use for cached page and asset bytes [default: 134217728]",
    ),
    (
        "EDGE_MANIFEST_CACHE_BYTES",
        "deploy manifests the edge keeps parsed, weighed by their stored size (parsed, about 2.5 times that); keep it several times the 2 MiB a manifest may have [default: 16777216]",
    ),
    (
        "EDGE_SITE_CACHE_ENTRIES",
        "hosts the edge keeps in memory [default: 100000]",
    ),
    (
        "EDGE_SITE_TTL_MS",
        "how long the edge trusts a cached host (and a hot route) before asking the database again; each key between 3/4 of it and all of it, so entries made together are not refilled together [default: 10000]",
    ),
    (
        "EDGE_RENDER_CACHE_ENTRIES",
        "rendered collection pages, lists and read-API answers kept in memory [default: 50000]",
    ),
    (
        "EDGE_HEADER_TIMEOUT_MS",
        "time a client has to send its request headers [default: 10000]",
    ),
    (
        "EDGE_MAX_HEADER_BYTES",
        "largest request head accepted, larger gets 431 (at least 8192) [default: 32768]",
    ),
    (
        "EDGE_IDLE_TIMEOUT_MS",
        "a connection hyper serves (HTTP/2, HTTPS) with no request in progress for this long is closed [default: 60000]",
    ),
    (
        "EDGE_WRITE_TIMEOUT_MS",
        "a write to a client blocked this long closes the connection, as does an HTTP/2 ping (sent after EDGE_IDLE_TIMEOUT_MS of silence) unanswered this long [default: 30000]",
    ),
    (
        "EDGE_WORKERS",
        "threads serving visitors, each with its own listening socket on the visitor addresses (SO_REUSEPORT); 0: one per CPU core [default: 0]",
    ),
    (
        "EDGE_HOT_CACHE_BYTES",
        "bytes of static answers each visitor thread keeps at hand, in front of the shared file cache: their heads, and bodies under 32 KiB (a larger body is read from the file cache, not held twice) [default: 25165824]",
    ),
    (
        "EDGE_PLAIN_FRONT",
        "the visitor listeners' own HTTP/1.1 front answers GET and HEAD requests (over HTTP and HTTPS) before hyper; false: hyper alone serves every connection, a fallback for a client the front mishandles [default: true]",
    ),
    (
        "EDGE_RENDER_RATE_PER_MINUTE",
        "uncached page renders one visitor (an IPv4 address or IPv6 /64) may cause a minute at an edge; more are answered 429 [default: 60]",
    ),
    (
        "EDGE_FORM_RATE_PER_MINUTE",
        "form submissions allowed per visitor and minute; an IPv6 visitor is its /64 [default: 10]",
    ),
    (
        "EDGE_FORM_SITE_RATE_PER_MINUTE",
        "form submissions one site takes per minute from all its visitors together [default: 120]",
    ),
    (
        "EDGE_SPOOL_MAX_BYTES",
        "disk the form spool may use while the database is down (its dead-letter file gets as much again); full: visitors get 503 [default: 67108864]",
    ),
    (
        "FORM_HISTORY_MAX_ENTRIES",
        "form submissions kept per project; the oldest are deleted past it and the owner is told [default: 10000]",
    ),
    (
        "FORM_NOTIFICATIONS_PER_RECIPIENT_PER_HOUR",
        "form notification e-mails one address is sent per hour, over every project; past it submissions are stored without mail [default: 30]",
    ),
    (
        "EDGE_QUERY_TIMEOUT_MS",
        "statement time limit of one collection query at the edge (read API, live lists); a slower one fails alone [default: 1000]",
    ),
    (
        "EDGE_TRUSTED_PROXIES",
        "comma-separated IPs or CIDRs of load balancers whose X-Forwarded-For gives the visitor address; unset: the TCP peer is the visitor [default: empty]",
    ),
    (
        "EDGE_CHANGE_POLL_MS",
        "how often the edge reads the change feed [default: 250]",
    ),
    (
        "EDGE_NODE_ID",
        "this edge node's name in the fleet's heartbeats [default: hostname:http port]",
    ),
    (
        "EDGE_REGION",
        "the region the node reports [default: local]",
    ),
    (
        "EDGE_HEARTBEAT_SECS",
        "how often the edge reports to the database [default: 5]",
    ),
    (
        "CONTROL_ADMIN_LISTEN",
        "the control plane's admin listener for /metrics and /healthz; empty for none [default: 127.0.0.1:9091]",
    ),
    (
        "ANALYTICS_SECRET",
        "the fleet's analytics key: every edge derives the day's visitor salt from it and the date, and tap links are signed with it; set the same value on every edge and the control plane [default: unset: a key kept in the database]",
    ),
    (
        "ANALYTICS_FLUSH_MS",
        "how often each edge writes its visitor counts to the database [default: 60000]",
    ),
    (
        "ANALYTICS_EXACT_VISITORS",
        "visitors counted exactly per site and day; past this a HyperLogLog sketch counts them [default: 10000]",
    ),
    (
        "ANALYTICS_MEMORY_MB",
        "the most memory an edge's unflushed visitor counts take: at half of it the edge flushes early, past it new visitors wait for the flush (their views still count); one account's sites take at most an eighth of it [default: 16]",
    ),
];

/// The `--help` text listing every setting.
pub fn settings_help() -> String {
    let mut out = String::from(
        "Settings (defaults, then the TOML file given by --config or VITRINE_CONFIG, then environment):\n",
    );
    for (name, meaning) in SETTINGS_HELP {
        out.push_str(&format!("  VITRINE_{name:<26} {meaning}\n"));
    }
    out
}
