//! Uploads (spec 1 §7 POST /api/upload) and serving them back under `/files/…`.
//!
//! The file type is decided from the bytes (the `infer` crate's magic numbers), never from the
//! name or the declared type. Keys are content-addressed (`…/{sha256 prefix}/{name}.{ext}`), so
//! a URL always names the same bytes and can be cached forever, and their folder names the
//! project they belong to, authorized here before anything is written (the layout and why it
//! is trusted: `vitrine_shared::uploads`).
//!
//! Every upload is charged to its folder's account (a business counts as one) before it is
//! written: at most `UPLOADS_PER_MINUTE` a minute, within `STORAGE_QUOTA_BYTES` and
//! `STORAGE_QUOTA_OBJECTS` (docs/security.md, "Storage"). The collector (`crate::collector`)
//! gives the share back when it deletes an upload nothing references.
//!
//! A JPEG, PNG or WebP is a photo (issue 44, `crate::photos`): before anything is charged it is
//! made, in a sandbox worker, into its upright original without metadata (what is stored under
//! the key) and its variants (stored beside it, charged with it as one upload); a photo the
//! worker refuses (too many pixels, unreadable, over its budgets) is a coded 422 and nothing is
//! written.

use axum::{
    body::Body,
    extract::State,
    http::{HeaderValue, StatusCode, header},
    response::{AppendHeaders, IntoResponse, Response},
};
use bytes::Bytes;
use serde::Deserialize;
use serde_json::Value;
use utoipa::ToSchema;
use vitrine_shared::ids::AccountId;
use vitrine_shared::{
    domain::slugify,
    store::{Reservation, StorageQuota, UploadOwner},
    uploads::{Folder, UPLOADS, upload_key, user_file_headers},
};

use vitrine_shared::photos::{Formats, is_photo};

use crate::{
    accounts::authz::{Principal, authorize_project},
    error::{ApiError, ErrorBody, ErrorCode, FileBodyAnswers, Result},
    extract::{ApiJson, ApiPath},
    photos::{account_of, stored_bytes},
    state::AppState,
    throttle::{Key, too_many},
};

#[derive(Debug, Deserialize, ToSchema)]
pub struct UploadRequest {
    pub name: String,
    /// The file as a data URL (`data:<type>;base64,<bytes>`).
    pub content: String,
    /// `[user_id, project_id, table_id?]`; `["admin"]` (rich text, spec §6) or none: the
    /// uploader's own folder, which belongs to no project.
    #[serde(default)]
    #[schema(value_type = Option<Vec<Object>>)]
    pub prefix: Option<Vec<Value>>,
    /// Narrows what is accepted: `image` (png, jpg, jpeg: the editor's image fields) or
    /// `font` (woff2: custom fonts). Anything is accepted from the general list when absent.
    #[serde(default)]
    pub accept: Option<String>,
}

/// The spec's message for a non-image in an image field.
pub const IMAGES_ONLY: &str = "Erro: envie somente imagens em JPG ou PNG.";

/// Accepted file kinds: (extension `infer` reports, MIME type, extension we store). Matched
/// on infer's extension because it reports one MIME type for both WOFF and WOFF2.
const ACCEPTED: &[(&str, &str, &str)] = &[
    ("png", "image/png", "png"),
    ("jpg", "image/jpeg", "jpg"),
    ("gif", "image/gif", "gif"),
    ("webp", "image/webp", "webp"),
    ("avif", "image/avif", "avif"),
    ("ico", "image/x-icon", "ico"),
    ("woff2", "font/woff2", "woff2"),
    ("woff", "font/woff", "woff"),
    ("ttf", "font/ttf", "ttf"),
    ("otf", "font/otf", "otf"),
    ("pdf", "application/pdf", "pdf"),
    ("mp4", "video/mp4", "mp4"),
    ("webm", "video/webm", "webm"),
    ("mp3", "audio/mpeg", "mp3"),
    ("zip", "application/zip", "zip"),
    (
        "docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "docx",
    ),
    (
        "xlsx",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "xlsx",
    ),
    (
        "pptx",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "pptx",
    ),
    ("odt", "application/vnd.oasis.opendocument.text", "odt"),
    (
        "ods",
        "application/vnd.oasis.opendocument.spreadsheet",
        "ods",
    ),
    ("doc", "application/msword", "doc"),
    ("xls", "application/vnd.ms-excel", "xls"),
];

/// Plain-text files accepted by their declared extension when the bytes are UTF-8 text.
/// They are served as text with `nosniff` and a sandboxing CSP, so they never run as HTML.
const TEXT_KINDS: &[(&str, &str)] = &[
    ("txt", "text/plain"),
    ("csv", "text/csv"),
    ("md", "text/markdown"),
];

/// A text file of a declared text kind: valid UTF-8 that does not look like markup.
fn detect_text(bytes: &[u8], declared_ext: Option<&str>) -> Option<(&'static str, &'static str)> {
    let (ext, mime) = TEXT_KINDS.iter().find(|(e, _)| Some(*e) == declared_ext)?;
    let text = std::str::from_utf8(bytes).ok()?;
    let head = text
        .trim_start()
        .get(..text.trim_start().len().min(256))?
        .to_ascii_lowercase();
    if head.starts_with('<') || text.contains('\0') {
        return None;
    }
    Some((mime, ext))
}

/// Extensions that name the same kind of file.
fn same_kind(a: &str, b: &str) -> bool {
    fn canon(e: &str) -> &str {
        match e {
            "jpeg" | "jpe" => "jpg",
            "otf" => "ttf",
            other => other,
        }
    }
    canon(a) == canon(b)
}

/// What kind of file `bytes` is, or None if it is not one we accept.
pub fn detect_kind(bytes: &[u8]) -> Option<(&'static str, &'static str)> {
    if let Some(kind) = infer::get(bytes)
        && let Some((_, mime, ext)) = ACCEPTED
            .iter()
            .find(|(found, _, _)| *found == kind.extension())
    {
        return Some((mime, ext));
    }
    // SVG is text: look for an <svg> root near the start.
    let head = String::from_utf8_lossy(&bytes[..bytes.len().min(1024)]).to_ascii_lowercase();
    let head = head.trim_start_matches('\u{feff}').trim_start();
    if (head.starts_with("<?xml") || head.starts_with("<svg") || head.starts_with("<!--"))
        && head.contains("<svg")
    {
        return Some(("image/svg+xml", "svg"));
    }
    None
}

fn prefix_part(v: &Value) -> Option<String> {
    match v {
        Value::Number(n) => n.as_i64().map(|n| n.to_string()),
        Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

fn parse_id<T: std::str::FromStr>(v: &Value) -> Result<T> {
    prefix_part(v).and_then(|s| s.parse().ok()).ok_or_else(|| {
        ApiError::invalid(
            "prefix",
            ErrorCode::UploadPrefixInvalid,
            "Invalid upload prefix",
        )
    })
}

/// Works out (and authorizes) where an upload goes. A client-panel token uploads only into
/// its own project's folder. `["admin"]` (the spec's prefix for rich-text images) names no
/// folder of its own: it once was one folder that every account wrote into, so a file there
/// said nothing about whose it was; such uploads now go to the uploader's own folder.
async fn upload_folder(
    state: &AppState,
    principal: &Principal,
    prefix: Option<&[Value]>,
) -> Result<Folder> {
    let user = match principal {
        Principal::User(u) => u,
        Principal::Client { project_id } => {
            let table_id = match prefix.and_then(|p| p.get(2)) {
                Some(t) => {
                    let table_id = parse_id(t)?;
                    if !state
                        .store
                        .collection_in_project(table_id, *project_id)
                        .await?
                    {
                        return Err(ApiError::NotFound);
                    }
                    Some(table_id)
                }
                None => None,
            };
            return Ok(Folder::Client {
                project_id: *project_id,
                table_id,
            });
        }
    };
    let own = Folder::Account { user_id: user.id };
    let parts = match prefix {
        None | Some([]) => return Ok(own),
        Some(parts) => parts,
    };
    if parts.len() == 1 && parts[0] == Value::String("admin".into()) {
        return Ok(own);
    }
    if parts.len() > 3 {
        return Err(ApiError::invalid(
            "prefix",
            ErrorCode::UploadPrefixInvalid,
            "Invalid upload prefix",
        ));
    }
    if parse_id::<AccountId>(&parts[0])? != user.id {
        // Another user's folder: indistinguishable from one that does not exist.
        return Err(ApiError::NotFound);
    }
    let Some(p) = parts.get(1) else {
        return Ok(own);
    };
    let project_id = parse_id(p)?;
    authorize_project(state, user, project_id).await?;
    let table_id = match parts.get(2) {
        Some(t) => {
            let table_id = parse_id(t)?;
            if !state
                .store
                .collection_in_project(table_id, project_id)
                .await?
            {
                return Err(ApiError::NotFound);
            }
            Some(table_id)
        }
        None => None,
    };
    Ok(Folder::Project {
        user_id: user.id,
        project_id,
        table_id,
    })
}

/// Whose share an upload into `folder` is charged to.
fn owner_of(folder: Folder) -> UploadOwner {
    match folder {
        Folder::Account { user_id } => UploadOwner::User(user_id),
        Folder::Project { project_id, .. } | Folder::Client { project_id, .. } => {
            UploadOwner::Project(project_id)
        }
    }
}

/// An instant after every upload's, for giving back an upload whose write failed.
fn far_future() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now() + chrono::Duration::days(1)
}

/// Charges `size` bytes under `key` to `account` before anything is written: whether the
/// upload is new (true) or the same file is stored already (false, no charge), or the coded
/// refusal of an account at its quota (`STORAGE_QUOTA_BYTES`, `STORAGE_QUOTA_OBJECTS`).
async fn charge(state: &AppState, key: &str, account: &str, size: u64) -> Result<bool> {
    let quota = StorageQuota {
        bytes: state.settings.storage_quota_bytes,
        objects: state.settings.storage_quota_objects,
    };
    match state
        .store
        .reserve_upload(key, account, size, quota)
        .await?
    {
        Reservation::Charged => Ok(true),
        Reservation::Stored => Ok(false),
        Reservation::OverBytes => Err(ApiError::conflict(
            "content",
            ErrorCode::StorageQuotaBytes,
            format!(
                "The account's files would pass its quota of {} bytes",
                quota.bytes
            ),
        )
        .param("max_mb", quota.bytes / (1024 * 1024))
        .param("max", quota.bytes)),
        Reservation::OverObjects => Err(ApiError::conflict(
            "content",
            ErrorCode::StorageQuotaObjects,
            format!("The account keeps {} files already", quota.objects),
        )
        .param("max", quota.objects)),
    }
}

#[utoipa::path(post, path = "/api/upload", tag = "uploads", request_body = UploadRequest,
    responses((status = 201, description = "The file's URL, as text/plain", body = String), FileBodyAnswers,
        (status = 429, body = ErrorBody, description = "More than `UPLOADS_PER_MINUTE` uploads a minute from the account (`upload_rate_limited`, with `Retry-After`)")))]
pub async fn upload(
    State(state): State<AppState>,
    principal: Principal,
    ApiJson(req): ApiJson<UploadRequest>,
) -> Result<Response> {
    let bytes = crate::extract::decode_data_url(&req.content, state.settings.upload_max_bytes)?;
    if bytes.is_empty() {
        return Err(ApiError::invalid(
            "content",
            ErrorCode::FileEmpty,
            "The file is empty",
        ));
    }
    let declared = req
        .name
        .trim()
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    let (mime, ext) = detect_kind(&bytes)
        .or_else(|| detect_text(&bytes, declared.as_deref()))
        .ok_or_else(|| {
            ApiError::unsupported_media(
                ErrorCode::FileTypeRefused,
                "This file type is not accepted",
            )
        })?;
    match req.accept.as_deref() {
        None => {}
        Some("image") if ext == "png" || ext == "jpg" => {}
        Some("image") => {
            return Err(ApiError::invalid(
                "content",
                ErrorCode::ImagesOnly,
                IMAGES_ONLY,
            ));
        }
        Some("font") if ext == "woff2" => {}
        Some("font") => {
            return Err(ApiError::invalid(
                "content",
                ErrorCode::WoffOnly,
                "Only .woff2 files are accepted",
            ));
        }
        Some(_) => {
            return Err(ApiError::invalid(
                "accept",
                ErrorCode::AcceptInvalid,
                "accept must be image or font",
            ));
        }
    }
    let name = req.name.trim();
    if name.is_empty() || name.len() > 255 {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::FileNameRequired,
            "A file name is required",
        ));
    }
    let (stem, declared_ext) = match name.rsplit_once('.') {
        Some((stem, e)) if !stem.is_empty() => (stem, Some(e.to_ascii_lowercase())),
        _ => (name, None),
    };
    if let Some(declared) = &declared_ext
        && !same_kind(declared, ext)
    {
        return Err(ApiError::invalid(
            "name",
            ErrorCode::FileTypeMismatch,
            format!("The file's content is {mime}, not .{declared}"),
        )
        .param("mime", mime)
        .param("extension", declared.clone()));
    }
    let folder = upload_folder(&state, &principal, req.prefix.as_deref()).await?;
    let stem = match slugify(stem) {
        s if s.is_empty() => "file".to_string(),
        s => s.chars().take(80).collect(),
    };
    let account = state.store.upload_account(owner_of(folder)).await?;
    let _counted = state
        .throttle
        .take(&[(
            Key::Uploads(account.clone()),
            state.settings.uploads_per_minute,
        )])
        .await
        .map_err(|r| too_many(r, ErrorCode::UploadRateLimited, "uploads"))?;
    // A photo is made in a worker before anything is charged or written: a file it refuses
    // (a decompression bomb) leaves nothing behind. What is kept is the upright original
    // without metadata, and its key names those bytes. Its AVIF variants, most of the work,
    // are made after the answer, in the background and in the account's share of the
    // workers (`crate::photos::avif`).
    let made = if is_photo(ext) {
        let account = account_of(&account);
        Some(crate::photos::make(&state.core, account, &bytes, ext, Formats::Quick).await?)
    } else {
        None
    };
    let (stored, size) = match &made {
        Some(made) => (made.original.clone(), stored_bytes(made)),
        None => {
            let size = bytes.len() as u64;
            (bytes, size)
        }
    };
    let key = upload_key(folder, &stored, &stem, ext);
    let fresh = charge(&state, &key, &account, size).await?;
    let written = async {
        state.blobs.put(&key, Bytes::from(stored)).await?;
        if let Some(made) = made
            && (fresh || state.store.photo(&key).await?.is_none())
        {
            crate::photos::store_variants(&state.core, &key, made, true).await?;
            state.avif.wake();
        }
        anyhow::Ok(())
    };
    if let Err(e) = written.await {
        if fresh {
            // Nothing was written: the share is given back (a claim made before any cut-off).
            state.store.release_upload(&key, far_future()).await?;
        }
        return Err(ApiError::Internal(e));
    }
    let mut response = (StatusCode::CREATED, format!("/files/{key}")).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    Ok(response)
}

/// Serves an uploaded file. Public (sites and the editor embed them), immutable
/// (content-addressed) and never active content on this origin: `nosniff`, a sandboxing CSP
/// with no sources, and the types that can carry script as attachments (the same headers as
/// the edge's, from `vitrine_shared::uploads`).
#[utoipa::path(get, path = "/files/{key}", tag = "uploads",
    params(("key" = String, Path, description = "Object key below /files/")),
    responses((status = 200, description = "The file"), (status = 404, body = ErrorBody)))]
pub async fn serve_file(
    State(state): State<AppState>,
    ApiPath(key): ApiPath<String>,
) -> Result<Response> {
    if !key.starts_with(UPLOADS) {
        return Err(ApiError::NotFound);
    }
    let bytes = state.blobs.get(&key).await?;
    let mime = mime_guess::from_path(&key).first_or_octet_stream();
    let content_type = HeaderValue::from_str(mime.as_ref())
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let headers = [
        (header::CACHE_CONTROL, "public, max-age=31536000, immutable"),
        (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
    ];
    // The inert headers name none of the above.
    let inert = AppendHeaders(user_file_headers(mime.as_ref()).iter().copied());
    Ok((
        [(header::CONTENT_TYPE, content_type)],
        headers,
        inert,
        Body::from(bytes),
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_come_from_the_bytes() {
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        assert_eq!(detect_kind(png), Some(("image/png", "png")));
        assert_eq!(
            detect_kind(b"wOF2\0\x01\0\0"),
            Some(("font/woff2", "woff2"))
        );
        assert_eq!(
            detect_kind(b"<?xml version=\"1.0\"?><svg xmlns=\"x\"></svg>"),
            Some(("image/svg+xml", "svg"))
        );
        assert_eq!(detect_kind(b"<html><script>alert(1)</script>"), None);
        assert_eq!(detect_kind(b"MZ\x90\0"), None);
        assert!(same_kind("jpeg", "jpg"));
        assert!(!same_kind("woff2", "png"));
        assert_eq!(
            detect_text(b"linha 1\nlinha 2", Some("txt")),
            Some(("text/plain", "txt"))
        );
        assert_eq!(
            detect_text(b"a,b\n1,2", Some("csv")),
            Some(("text/csv", "csv"))
        );
        assert_eq!(
            detect_text(b"<html><script>x()</script>", Some("txt")),
            None
        );
        assert_eq!(detect_text(b"\xff\xfe", Some("txt")), None);
        assert_eq!(detect_text(b"texto", Some("html")), None);
    }
}
