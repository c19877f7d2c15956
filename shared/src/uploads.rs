//! User files: where an upload's object key says it belongs, and the headers it is served
//! with, wherever it is served (the control plane's `/files/…`, a site's `/files/uploads/…`
//! and the copies a deploy keeps under `/_assets/…`).
//!
//! **The key names its owner.** `POST /api/upload` is the only writer of `uploads/…` keys
//! (the thumbnails job writes `uploads/thumbnails/…`), and it authorizes the folder before it
//! writes, so the folder in a key is as trustworthy as a database row written at the same
//! moment, and it costs the edge no lookup at all:
//!
//! | key | belongs to |
//! |---|---|
//! | `uploads/{user}/{project}[/{table}]/{digest}/{name}` | project `{project}` |
//! | `uploads/clients/{project}[/{table}]/{digest}/{name}` | project `{project}` (client panel) |
//! | `uploads/{user}/{digest}/{name}` | the account only: no project |
//! | `uploads/admin/{digest}/{name}`, `uploads/thumbnails/{name}` | no project (written before this rule, and platform thumbnails) |
//!
//! `{digest}` is the first [`DIGEST_LEN`] hex digits of the file's SHA-256, so a key always
//! names the same bytes. Project ids are never reused (both databases hand out identities
//! that only grow), so a key's project never changes hands either. A site's host serves an
//! upload only when the key belongs to its project or its live deploy lists the key (see
//! `Manifest::uploads`): a file from a template, a duplicated project, or another project of
//! the owner's, that the deploy's pages or records name.
//!
//! **Never active content.** Every user file is sent with `nosniff` and a sandboxing CSP with
//! no sources, and the types that can carry script (SVG, HTML, XML, PDF) as attachments: a
//! browser that navigates to one runs nothing and downloads it, while an `<img>` still shows
//! it (a disposition does not apply to subresources, and script in an `<img>` never runs).

use crate::ids::{AccountId, CollectionId, ProjectId};
use sha2::{Digest, Sha256};

/// Where uploaded files live in the object store (and, after `/files/`, in URLs).
pub const UPLOADS: &str = "uploads/";

/// Hex digits of the SHA-256 in an upload's key.
pub const DIGEST_LEN: usize = 20;

/// Longest upload key the servers look at.
pub const MAX_KEY: usize = 400;

/// `X-Content-Type-Options` of every user file.
pub const NOSNIFF: &str = "nosniff";

/// `Content-Security-Policy` of every user file: a unique opaque origin with no scripts, no
/// plugins and nothing loaded, should a browser ever render one as a document.
pub const USER_FILE_CSP: &str = "sandbox; default-src 'none'";

/// `Content-Disposition` of the user files that can carry script.
pub const ATTACHMENT: &str = "attachment";

/// The headers of a user file that cannot carry script (lower-case names, as HTTP/2 wants).
const INERT: &[(&str, &str)] = &[
    ("x-content-type-options", NOSNIFF),
    ("content-security-policy", USER_FILE_CSP),
];

/// The headers of a user file that can carry script.
const INERT_DOWNLOAD: &[(&str, &str)] = &[
    ("x-content-type-options", NOSNIFF),
    ("content-security-policy", USER_FILE_CSP),
    ("content-disposition", ATTACHMENT),
];

/// The folder an upload goes to, decided (and authorized) by the control plane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    /// An account's own files, belonging to no project.
    Account { user_id: AccountId },
    /// Files of one project (and one of its collections), uploaded by `user_id`.
    Project {
        user_id: AccountId,
        project_id: ProjectId,
        table_id: Option<CollectionId>,
    },
    /// Files a project's client-panel token uploaded (into one of its collections).
    Client {
        project_id: ProjectId,
        table_id: Option<CollectionId>,
    },
}

impl Folder {
    fn path(&self) -> String {
        let table = |t: &Option<CollectionId>| t.map(|t| format!("/{t}")).unwrap_or_default();
        match self {
            Folder::Account { user_id } => user_id.to_string(),
            Folder::Project {
                user_id,
                project_id,
                table_id,
            } => format!("{user_id}/{project_id}{}", table(table_id)),
            Folder::Client {
                project_id,
                table_id,
            } => format!("clients/{project_id}{}", table(table_id)),
        }
    }
}

/// The object key of an upload: `uploads/{folder}/{digest}/{stem}.{ext}`. `stem` must
/// already be a slug (letters, digits and `-`), `ext` the extension of the detected type.
pub fn upload_key(folder: Folder, bytes: &[u8], stem: &str, ext: &str) -> String {
    let digest = hex::encode(Sha256::digest(bytes));
    format!(
        "{UPLOADS}{}/{}/{stem}.{ext}",
        folder.path(),
        &digest[..DIGEST_LEN]
    )
}

/// What an upload key says, for a key the servers will serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadKey {
    /// The project the key's folder names, if any.
    pub project_id: Option<ProjectId>,
    /// A validator for the file: its digest, or for keys without one, a hash of the key
    /// (a key always names the same bytes).
    pub tag: String,
}

fn id(segment: &str) -> Option<i64> {
    (segment.bytes().all(|b| b.is_ascii_digit()) && !segment.starts_with('0'))
        .then(|| segment.parse().ok())
        .flatten()
}

fn is_digest(segment: &str) -> bool {
    segment.len() == DIGEST_LEN
        && segment
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

impl UploadKey {
    /// `key` (`uploads/…`) when it has the shape of an upload key: at most [`MAX_KEY`] bytes,
    /// 2 to 6 segments below `uploads/` of letters, digits, `.`, `-` and `_`, none empty or
    /// starting with a dot.
    /// Anything else names no upload (and is never looked up).
    pub fn parse(key: &str) -> Option<UploadKey> {
        let rest = key.strip_prefix(UPLOADS)?;
        let segments: Vec<&str> = rest.split('/').collect();
        let valid = key.len() <= MAX_KEY
            && (2..=6).contains(&segments.len())
            && segments.iter().all(|s| {
                !s.is_empty()
                    && !s.starts_with('.')
                    && s.bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_'))
            });
        if !valid {
            return None;
        }
        let (folder, digest) = match segments.len().checked_sub(2) {
            Some(at) if is_digest(segments[at]) => (&segments[..at], Some(segments[at])),
            _ => (&segments[..0], None),
        };
        let ids = |segments: &[&str]| segments.iter().all(|s| id(s).is_some());
        let project_id = match folder {
            [_, project] | [_, project, _] if ids(folder) => id(project).map(ProjectId),
            ["clients", project] | ["clients", project, _] if ids(&folder[1..]) => {
                id(project).map(ProjectId)
            }
            _ => None,
        };
        let tag = match digest {
            Some(d) => d.to_string(),
            None => hex::encode(&Sha256::digest(key.as_bytes())[..10]),
        };
        Some(UploadKey { project_id, tag })
    }
}

/// Whether a body of this type can run script when a browser opens it as a document: HTML,
/// SVG and the other XML types (XSLT, XHTML), and PDF (its viewer runs JavaScript).
pub fn can_carry_script(content_type: &str) -> bool {
    let essence = crate::media_type::essence(content_type);
    essence.contains("html")
        || essence.contains("xml")
        || essence.contains("xsl")
        || essence == "application/pdf"
}

/// Whether the object at `key` is a user file: an upload, or a deploy's asset other than
/// the block CSS and JS bundles the publisher builds (which are the owner's own code for the
/// owner's own pages: images, fonts and documents are copies of uploads).
pub fn is_user_file(key: &str, content_type: &str) -> bool {
    if key.starts_with(UPLOADS) {
        return true;
    }
    // `sites/{project}/assets/{name}`: see `manifest::asset_key`.
    let asset = key
        .strip_prefix("sites/")
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(project, rest)| id(project).is_some() && rest.starts_with("assets/"));
    let essence = content_type.split(';').next().unwrap_or("").trim();
    asset
        && !matches!(
            essence,
            "text/css" | "text/javascript" | "application/javascript"
        )
}

/// The headers a user file of this type is served with (lower-case names).
pub fn user_file_headers(content_type: &str) -> &'static [(&'static str, &'static str)] {
    if can_carry_script(content_type) {
        INERT_DOWNLOAD
    } else {
        INERT
    }
}

/// Occurrences of the platform's upload URLs in `text` (a page, a record's JSON): (byte range,
/// blob key). Both `/files/uploads/…`
/// and `{public_url}/files/uploads/…` are found; the same path under another host is not ours.
pub fn find_uploads(text: &str, public_url: &str) -> Vec<(std::ops::Range<usize>, String)> {
    const NEEDLE: &str = "/files/uploads/";
    let public_url = public_url.trim_end_matches('/');
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(pos) = text[from..].find(NEEDLE) {
        let start = from + pos;
        let path_end = text[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '/')))
            .map(|i| start + i)
            .unwrap_or(text.len());
        from = path_end.max(start + NEEDLE.len());
        let path = text[start..path_end].trim_end_matches('.');
        let end = start + path.len();
        let mut begin = start;
        if !public_url.is_empty() && text[..start].ends_with(public_url) {
            begin = start - public_url.len();
        } else if text[..start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '/'))
        {
            continue;
        }
        let key = &path["/files/".len()..];
        if key.len() > "uploads/".len() && !key.contains("//") && !key.contains("..") {
            out.push((begin..end, key.to_string()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const D: &str = "0123456789abcdef0123";

    #[test]
    fn keys_are_built_in_the_folder_the_control_plane_chose() {
        let key = |f| upload_key(f, b"x", "logo", "png");
        let digest = &hex::encode(Sha256::digest(b"x"))[..DIGEST_LEN];
        assert_eq!(
            key(Folder::Account {
                user_id: AccountId(5)
            }),
            format!("uploads/5/{digest}/logo.png")
        );
        assert_eq!(
            key(Folder::Project {
                user_id: AccountId(5),
                project_id: ProjectId(7),
                table_id: Some(CollectionId(9))
            }),
            format!("uploads/5/7/9/{digest}/logo.png")
        );
        assert_eq!(
            key(Folder::Client {
                project_id: ProjectId(7),
                table_id: None
            }),
            format!("uploads/clients/7/{digest}/logo.png")
        );
        for folder in [
            Folder::Account {
                user_id: AccountId(5),
            },
            Folder::Project {
                user_id: AccountId(5),
                project_id: ProjectId(7),
                table_id: None,
            },
            Folder::Client {
                project_id: ProjectId(7),
                table_id: Some(CollectionId(3)),
            },
        ] {
            let k = key(folder);
            let parsed = UploadKey::parse(&k).unwrap();
            assert_eq!(parsed.tag, digest);
            let want = match folder {
                Folder::Account { .. } => None,
                _ => Some(ProjectId(7)),
            };
            assert_eq!(parsed.project_id, want, "{k}");
        }
    }

    #[test]
    fn only_a_project_folder_with_a_digest_names_a_project() {
        let project = |k: &str| UploadKey::parse(k).and_then(|u| u.project_id);
        assert_eq!(
            project(&format!("uploads/5/7/{D}/a.png")),
            Some(ProjectId(7))
        );
        assert_eq!(
            project(&format!("uploads/5/7/9/{D}/a.png")),
            Some(ProjectId(7))
        );
        assert_eq!(
            project(&format!("uploads/clients/7/{D}/a.png")),
            Some(ProjectId(7))
        );
        assert_eq!(
            project(&format!("uploads/clients/7/9/{D}/a.png")),
            Some(ProjectId(7))
        );
        for none in [
            format!("uploads/5/{D}/a.png"),
            format!("uploads/admin/{D}/a.png"),
            "uploads/thumbnails/block-1-abc.png".to_string(),
            // No digest where one belongs: the folder cannot be told from the name.
            "uploads/5/7/x/a.png".to_string(),
            format!("uploads/5/07/{D}/a.png"),
            format!("uploads/x/7/{D}/a.png"),
            format!("uploads/5/7/x/{D}/a.png"),
            format!("uploads/clients/x/{D}/a.png"),
            format!("uploads/clients/7/9/9/{D}/a.png"),
            format!("uploads/clients/7/clients/{D}/a.png"),
            format!("uploads/5/clients/{D}/a.png"),
            format!("uploads/5/99999999999999999999/{D}/a.png"),
        ] {
            assert_eq!(project(&none), None, "{none}");
        }
        for refused in [
            "uploads/".to_string(),
            "uploads/a.png".to_string(),
            "sites/1/assets/a.png".to_string(),
            format!("uploads/5/7/{D}/.hidden"),
            format!("uploads/5//{D}/a.png"),
            format!("uploads/5/7/{D}/a b.png"),
            format!("uploads/1/2/3/4/5/{D}/a.png"),
            format!("uploads/5/{}/a.png", "x".repeat(MAX_KEY)),
        ] {
            assert_eq!(UploadKey::parse(&refused), None, "{refused}");
        }
        // Keys without a digest still get a validator of their own.
        let a = UploadKey::parse("uploads/thumbnails/a.png").unwrap().tag;
        let b = UploadKey::parse("uploads/thumbnails/b.png").unwrap().tag;
        assert_ne!(a, b);
    }

    #[test]
    fn types_that_can_run_script_are_downloads_and_every_user_file_is_sandboxed() {
        for active in [
            "image/svg+xml",
            "text/html; charset=utf-8",
            "application/xhtml+xml",
            "text/xml",
            "application/xml",
            "application/xslt+xml",
            "application/pdf",
            "Image/SVG+XML",
        ] {
            assert!(can_carry_script(active), "{active}");
            assert!(user_file_headers(active).contains(&("content-disposition", "attachment")));
        }
        for inert in [
            "image/png",
            "image/jpeg",
            "font/woff2",
            "text/plain",
            "video/mp4",
        ] {
            assert!(!can_carry_script(inert), "{inert}");
            let h = user_file_headers(inert);
            assert!(!h.iter().any(|(n, _)| *n == "content-disposition"));
            assert!(h.contains(&("x-content-type-options", "nosniff")));
            assert!(h.contains(&("content-security-policy", "sandbox; default-src 'none'")));
        }
    }

    #[test]
    fn uploads_and_copied_assets_are_user_files_and_the_bundles_and_pages_are_not() {
        assert!(is_user_file("uploads/5/7/x/a.png", "image/png"));
        assert!(is_user_file("uploads/5/7/x/a.js", "text/javascript"));
        assert!(is_user_file("sites/7/assets/ab.svg", "image/svg+xml"));
        assert!(is_user_file("sites/7/assets/ab.woff2", "font/woff2"));
        assert!(!is_user_file(
            "sites/7/assets/ab.css",
            "text/css; charset=utf-8"
        ));
        assert!(!is_user_file("sites/7/assets/ab.js", "text/javascript"));
        assert!(!is_user_file(
            "deploys/7/3/pages/index.html",
            "text/html; charset=utf-8"
        ));
        assert!(!is_user_file(
            "sites/7/pages/ab.html",
            "text/html; charset=utf-8"
        ));
        assert!(!is_user_file("", "text/html; charset=utf-8"));
    }

    #[test]
    fn only_our_own_upload_urls_are_found() {
        let text = r#"<img src="/files/uploads/1/2/ab/x.png"> url(http://localhost:8000/files/uploads/1/2/cd/y.jpg) https://cdn.example/files/uploads/1/z.png /files/uploads/../etc"#;
        let found = find_uploads(text, "http://localhost:8000");
        let keys: Vec<&str> = found.iter().map(|(_, k)| k.as_str()).collect();
        assert_eq!(keys, ["uploads/1/2/ab/x.png", "uploads/1/2/cd/y.jpg"]);
        assert_eq!(
            &text[found[1].0.clone()],
            "http://localhost:8000/files/uploads/1/2/cd/y.jpg"
        );
    }
}
