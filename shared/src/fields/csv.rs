//! Values as CSV cells (exports and spreadsheet links), with text that a spreadsheet would
//! run as a formula marked, and read back; and an imported file's text encoding and
//! separator, detected.
//!
//! Spreadsheets save CSV in more than one way: Brazilian Excel's "CSV (separado por
//! vírgulas)" writes Windows-1252 text separated by semicolons (its list separator, since the
//! comma is the decimal separator), "CSV UTF-8" adds a byte order mark, LibreOffice and Google
//! Sheets write UTF-8 with commas, and "Unicode text" is UTF-16 with tabs. Decoding uses
//! encoding_rs (Firefox's implementation of the WHATWG Encoding Standard); a file that is
//! neither marked nor valid UTF-8 gets its encoding guessed by chardetng (Firefox's detector
//! for unlabelled legacy text, built for exactly this and kept with encoding_rs), told that
//! the text is Brazilian (`.br`), so Portuguese accents weigh towards Windows-1252. The
//! separator is the one of `,` `;` and tab that splits the first rows, read with the `csv`
//! crate so quoted fields (`"59,90"`) count as one cell, into the same number of cells, more
//! than one.

use serde_json::Value;

/// What makes a spreadsheet read a cell as a formula (OWASP, "CSV Injection").
const FORMULA_START: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// Text as it goes into a CSV cell, safe to open in a spreadsheet: text that starts like a
/// formula gets a leading `'` (which spreadsheets read as "this is text"). Text that already
/// starts with quotes and then such a character gets one more quote, so [`csv_text_read`]
/// gives back exactly what was written. Only text is marked: numbers (currency in cents,
/// negative ones included) are written as numbers, which no spreadsheet runs.
pub fn csv_text(s: &str) -> std::borrow::Cow<'_, str> {
    if s.trim_start_matches('\'').starts_with(FORMULA_START) {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// A CSV cell read back: the mark [`csv_text`] added, if any, is taken off.
pub fn csv_text_read(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest) if rest.trim_start_matches('\'').starts_with(FORMULA_START) => rest,
        _ => cell,
    }
}

/// The value as it goes into a CSV cell: text through [`csv_text`], lists and objects as
/// JSON.
pub fn csv_cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => csv_text(s).into_owned(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => if *b { "1" } else { "0" }.into(),
        other => other.to_string(),
    }
}

/// A file's text and the encoding it was read in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodedText {
    pub text: String,
    /// The encoding's WHATWG name: `UTF-8`, `UTF-16LE`, `windows-1252`, …
    pub encoding: &'static str,
    /// Whether the file started with a byte order mark (dropped from `text`).
    pub bom: bool,
}

/// A file whose byte order mark promises UTF-8 (or UTF-16) but whose bytes are not; `offset`
/// is the first bad byte's, in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotText {
    pub offset: usize,
}

/// Decodes a spreadsheet file: by its byte order mark when it has one (strictly: a bad byte
/// is an error), as UTF-8 when it is valid UTF-8, else in the legacy encoding chardetng
/// guesses (Windows-1252 for what Brazilian Excel saves).
pub fn decode_spreadsheet(bytes: &[u8]) -> Result<DecodedText, NotText> {
    if let Some((encoding, bom_len)) = encoding_rs::Encoding::for_bom(bytes) {
        let body = &bytes[bom_len..];
        return match encoding.decode_without_bom_handling_and_without_replacement(body) {
            Some(text) => Ok(DecodedText {
                text: text.into_owned(),
                encoding: encoding.name(),
                bom: true,
            }),
            None => Err(NotText {
                offset: bom_len + first_bad_offset(encoding, body),
            }),
        };
    }
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(DecodedText {
            text: text.to_string(),
            encoding: encoding_rs::UTF_8.name(),
            bom: false,
        });
    }
    let mut detector = chardetng::EncodingDetector::new();
    detector.feed(bytes, true);
    let encoding = detector.guess(Some(b"br"), false);
    match encoding.decode_without_bom_handling_and_without_replacement(bytes) {
        Some(text) => Ok(DecodedText {
            text: text.into_owned(),
            encoding: encoding.name(),
            bom: false,
        }),
        None => Err(NotText {
            offset: first_bad_offset(encoding, bytes),
        }),
    }
}

/// Where decoding `bytes` in `encoding` meets its first malformed sequence.
fn first_bad_offset(encoding: &'static encoding_rs::Encoding, bytes: &[u8]) -> usize {
    let mut decoder = encoding.new_decoder_without_bom_handling();
    let mut out = String::with_capacity(decoder.max_utf8_buffer_length(bytes.len()).unwrap_or(0));
    let (result, read) = decoder.decode_to_string_without_replacement(bytes, &mut out, true);
    match result {
        encoding_rs::DecoderResult::Malformed(bad, after) => {
            read.saturating_sub(bad as usize + after as usize)
        }
        _ => read,
    }
}

/// The separators an import tells apart, in the order ties go.
pub const SEPARATORS: [u8; 3] = [b',', b';', b'\t'];

/// How many of a file's first rows separator detection reads.
const SAMPLE_ROWS: usize = 50;

/// The separator of a CSV text: of [`SEPARATORS`], the one that splits the header into the
/// most cells (more than one) with every sampled row having as many, quotes respected; when
/// none splits consistently, the one splitting the header most; a one-column file is `,`.
pub fn detect_separator(text: &str) -> u8 {
    let mut best = (b',', false, 1usize);
    for sep in SEPARATORS {
        let mut reader = ::csv::ReaderBuilder::new()
            .delimiter(sep)
            .has_headers(false)
            .flexible(true)
            .from_reader(text.as_bytes());
        let mut widths = Vec::new();
        for record in reader.records().take(SAMPLE_ROWS) {
            match record {
                Ok(r) => widths.push(r.len()),
                Err(_) => {
                    widths.push(0);
                    break;
                }
            }
        }
        let header = widths.first().copied().unwrap_or(0);
        let consistent = widths.iter().all(|w| *w == header);
        if header > 1 && (consistent, header) > (best.1, best.2) {
            best = (sep, consistent, header);
        }
    }
    best.0
}

/// A separator as people name it: `,` `;` or `tab`.
pub fn separator_name(sep: u8) -> &'static str {
    match sep {
        b';' => ";",
        b'\t' => "tab",
        _ => ",",
    }
}
