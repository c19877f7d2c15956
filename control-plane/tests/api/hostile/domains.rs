//! Domains belong to whoever proves them by TXT; a name and its `www.` twin are one unit;
//! preview slugs that look like the platform's own are reserved.
