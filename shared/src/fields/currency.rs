//! Currency values: integer cents written in one of the four formats of spec 1 §3.

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
