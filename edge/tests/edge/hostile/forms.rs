//! One site's bad form input never stops another site's forms: control characters, poisoned
//! spool lines, caps and rate limits.
