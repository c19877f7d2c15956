//! Currency values: integer cents written in one of the four formats of spec 1 §3, and
//! amounts read back as people write them in spreadsheets.

/// The four currency formats of spec 1 §3, with `(symbol)` standing for the symbol.
pub const CURRENCY_FORMATS: [&str; 4] = [
    "(symbol) 9.999,99",
    "(symbol) 9,999.99",
    "9.999,99 (symbol)",
    "9,999.99 (symbol)",
];

/// Formats integer cents in one of [`CURRENCY_FORMATS`] (unknown formats use the first).
pub fn format_currency(cents: i64, symbol: &str, format: &str) -> String {
    let (thousands, decimal, symbol_first) = match format {
        "(symbol) 9,999.99" => (',', '.', true),
        "9.999,99 (symbol)" => ('.', ',', false),
        "9,999.99 (symbol)" => (',', '.', false),
        _ => ('.', ',', true),
    };
    let negative = cents < 0;
    let abs = cents.unsigned_abs();
    let units = (abs / 100).to_string();
    let mut grouped = String::new();
    for (i, c) in units.chars().enumerate() {
        if i > 0 && (units.len() - i).is_multiple_of(3) {
            grouped.push(thousands);
        }
        grouped.push(c);
    }
    let number = format!(
        "{}{grouped}{decimal}{:02}",
        if negative { "-" } else { "" },
        abs % 100
    );
    match (symbol.is_empty(), symbol_first) {
        (true, _) => number,
        (false, true) => format!("{symbol} {number}"),
        (false, false) => format!("{number} {symbol}"),
    }
}

/// The thousands separator of a currency format (the other of `.` and `,` is its decimal).
fn thousands_of(format: &str) -> char {
    match format {
        "(symbol) 9,999.99" | "9,999.99 (symbol)" => ',',
        _ => '.',
    }
}

/// Why a written amount could not be read (see [`parse_amount`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AmountError {
    /// Not a number as people write amounts ("abc", "12.5x", "1.2.3,4").
    Unreadable,
    /// More than two decimal places ("59,999").
    TooManyDecimals,
    /// More than 13 digits of whole units.
    TooLarge,
}

/// Reads an amount as people write it in a spreadsheet, in the field's format, into cents.
///
/// This is the rule for files (imports), not the record form's input mask, which reads typed
/// digits as cents. The rules, in order:
/// - the field's symbol, common currency signs (`R$`, `US$`, `$`, `€`, `£`) and spaces
///   (non-breaking ones included) around the number are dropped; a leading `-` makes it
///   negative;
/// - digits alone are whole units: `59` is 59,00 (5900 cents);
/// - with both `.` and `,`, the last one is the decimal separator and the other groups
///   thousands (`1.234,56` and `1,234.56` are both 1234,56 in any field);
/// - a separator that appears twice or more groups thousands (`1.234.567`);
/// - one separator once: the field's decimal separator is decimal (`1,5` is 1,50 and `59,90`
///   is 59,90 in a `9.999,99` field); the field's thousands separator followed by exactly three
///   digits groups thousands (`1.234` is one thousand two hundred thirty-four in a `9.999,99`
///   field), followed by one or two digits it is a decimal point (`1234.56`, as programs
///   write numbers);
/// - thousands groups have three digits, decimals one or two; anything else is refused
///   rather than guessed.
pub fn parse_amount(text: &str, symbol: &str, format: &str) -> Result<i64, AmountError> {
    let thousands = thousands_of(format);
    let mut s = text.trim().replace(['\u{a0}', '\u{202f}', ' '], "");
    let symbol: String = symbol.chars().filter(|c| !c.is_whitespace()).collect();
    let negative = s.starts_with('-');
    if negative {
        s.remove(0);
    }
    for sign in [symbol.as_str(), "R$", "US$", "$", "€", "£"] {
        if sign.is_empty() {
            continue;
        }
        if let Some(rest) = s.strip_prefix(sign).or_else(|| s.strip_suffix(sign)) {
            s = rest.to_string();
            break;
        }
    }
    let negative = match s.strip_prefix('-') {
        Some(rest) if !negative => {
            s = rest.to_string();
            true
        }
        _ => negative,
    };
    if s.is_empty()
        || !s.starts_with(|c: char| c.is_ascii_digit())
        || !s
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
    {
        return Err(AmountError::Unreadable);
    }
    let dots = s.matches('.').count();
    let commas = s.matches(',').count();
    // Which character is the decimal point, if any.
    let point = match (dots, commas) {
        (0, 0) => None,
        (_, 0) | (0, _) => {
            let c = if dots > 0 { '.' } else { ',' };
            let after = s.len() - s.rfind(c).unwrap_or(0) - 1;
            if dots + commas > 1 || (c == thousands && after == 3) {
                None
            } else {
                Some(c)
            }
        }
        _ => {
            let last_dot = s.rfind('.').unwrap_or(0);
            let last_comma = s.rfind(',').unwrap_or(0);
            Some(if last_dot > last_comma { '.' } else { ',' })
        }
    };
    let (whole, fraction) = match point {
        Some(p) => {
            let at = s.rfind(p).unwrap_or(0);
            (&s[..at], &s[at + 1..])
        }
        None => (s.as_str(), ""),
    };
    if point.is_some() && (whole.contains(point.unwrap_or('.')) || fraction.is_empty()) {
        return Err(AmountError::Unreadable);
    }
    if fraction.len() > 2 {
        return Err(AmountError::TooManyDecimals);
    }
    if !fraction.chars().all(|c| c.is_ascii_digit()) {
        return Err(AmountError::Unreadable);
    }
    // The whole part: digits, or groups of three after the first, split by one separator.
    let group = if whole.contains('.') {
        Some('.')
    } else if whole.contains(',') {
        Some(',')
    } else {
        None
    };
    let digits: String = match group {
        None => whole.to_string(),
        Some(g) => {
            let parts: Vec<&str> = whole.split(g).collect();
            let first_ok = (1..=3).contains(&parts[0].len());
            if !first_ok
                || parts[1..].iter().any(|p| p.len() != 3)
                || parts.iter().any(|p| !p.chars().all(|c| c.is_ascii_digit()))
            {
                return Err(AmountError::Unreadable);
            }
            parts.concat()
        }
    };
    if digits.trim_start_matches('0').len() > 13 {
        return Err(AmountError::TooLarge);
    }
    let units: i64 = digits.parse().map_err(|_| AmountError::Unreadable)?;
    let cents: i64 = format!("{fraction:0<2}").parse().unwrap_or(0);
    let total = units * 100 + cents;
    Ok(if negative { -total } else { total })
}

/// An example amount in a format, as error messages show it (`1.234,56`).
pub fn amount_example(format: &str) -> String {
    format_currency(123_456, "", format)
}
