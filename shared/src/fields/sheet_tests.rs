//! Spreadsheet files: amounts as people write them, encodings and separators detected.

use super::{
    AmountError, CURRENCY_FORMATS, amount_example, decode_spreadsheet, detect_separator,
    format_currency, parse_amount,
};

const BRL: &str = CURRENCY_FORMATS[0];
const USD: &str = CURRENCY_FORMATS[1];

fn brl(s: &str) -> Result<i64, AmountError> {
    parse_amount(s, "R$", BRL)
}

#[test]
fn a_whole_number_is_whole_units_not_cents() {
    assert_eq!(brl("59"), Ok(5900));
    assert_eq!(brl("R$ 59"), Ok(5900));
    assert_eq!(brl("0"), Ok(0));
    assert_eq!(format_currency(brl("59").unwrap(), "R$", BRL), "R$ 59,00");
}

#[test]
fn amounts_read_as_people_write_them_in_a_real_field() {
    for (written, cents) in [
        ("59,90", 5990),
        ("59,9", 5990),
        ("1,5", 150),
        ("0,05", 5),
        ("R$ 1.234,56", 123_456),
        ("R$1.234,56", 123_456),
        ("1.234,56 R$", 123_456),
        ("R$\u{a0}1.234,56", 123_456),
        ("  59,90  ", 5990),
        ("1234,56", 123_456),
        ("1234.56", 123_456),
        ("59.9", 5990),
        ("1.234", 123_400),
        ("1.234.567", 123_456_700),
        ("1.234.567,89", 123_456_789),
        ("1,234.56", 123_456),
        ("US$ 10", 1000),
        ("-59,90", -5990),
        ("-R$ 59,90", -5990),
        ("R$ -59,90", -5990),
    ] {
        assert_eq!(brl(written), Ok(cents), "{written:?}");
    }
}

#[test]
fn a_dollar_field_reads_its_own_separators() {
    let usd = |s: &str| parse_amount(s, "$", USD);
    assert_eq!(usd("$ 1,234.56"), Ok(123_456));
    assert_eq!(usd("1,234"), Ok(123_400), "thousands in a 9,999.99 field");
    assert_eq!(usd("1.5"), Ok(150));
    assert_eq!(usd("59,90"), Ok(5990), "comma with two digits is decimal");
    assert_eq!(usd("59"), Ok(5900));
}

#[test]
fn ambiguous_or_broken_amounts_are_refused_not_guessed() {
    assert_eq!(brl("1,234"), Err(AmountError::TooManyDecimals));
    assert_eq!(brl("59,999"), Err(AmountError::TooManyDecimals));
    for bad in [
        "abc",
        "12.5x",
        "",
        "R$",
        "1.2.3",
        "1.23.456",
        "12.34,5.6",
        ",5",
        "59,",
        "1..2",
        "--5",
        "5-",
        "1 2 3a",
        "R$ R$ 5",
    ] {
        assert!(brl(bad).is_err(), "{bad:?} should be refused");
    }
    assert_eq!(brl("99999999999999"), Err(AmountError::TooLarge));
    assert_eq!(brl("9999999999999"), Ok(999_999_999_999_900));
    assert_eq!(amount_example(BRL), "1.234,56");
    assert_eq!(amount_example(USD), "1,234.56");
}

#[test]
fn what_a_brl_export_writes_reads_back_the_same() {
    for cents in [0, 5, 5990, 123_456, 100_000_000, -150] {
        for format in CURRENCY_FORMATS {
            let written = format_currency(cents, "", format);
            assert_eq!(parse_amount(&written, "", format), Ok(cents), "{written}");
            let with_symbol = format_currency(cents, "R$", format);
            assert_eq!(
                parse_amount(&with_symbol, "R$", format),
                Ok(cents),
                "{with_symbol}"
            );
        }
    }
}

#[test]
fn utf8_with_or_without_a_bom_and_windows_1252_are_decoded() {
    let plain = decode_spreadsheet("nome;preço\nPão de queijo;59,90\n".as_bytes()).unwrap();
    assert_eq!((plain.encoding, plain.bom), ("UTF-8", false));
    assert!(plain.text.starts_with("nome;preço"));

    let bom = decode_spreadsheet("\u{feff}nome\nPão\n".as_bytes()).unwrap();
    assert_eq!(
        (bom.encoding, bom.bom, bom.text.as_str()),
        ("UTF-8", true, "nome\nPão\n")
    );

    // What Brazilian Excel's "CSV (separado por vírgulas)" saves.
    let (bytes, _, _) = encoding_rs::WINDOWS_1252
        .encode("Nome;Preço\r\nPão de queijo;59\r\nCoração de frango;59,90\r\nCafé;1.234,56\r\n");
    let legacy = decode_spreadsheet(&bytes).unwrap();
    assert_eq!((legacy.encoding, legacy.bom), ("windows-1252", false));
    assert!(legacy.text.contains("Pão de queijo") && legacy.text.contains("Café"));

    // Excel's "Unicode text": UTF-16 with a byte order mark, tab-separated.
    let mut unicode_text = vec![0xFF, 0xFE];
    for unit in "nome\tpreço\n".encode_utf16() {
        unicode_text.extend(unit.to_le_bytes());
    }
    let decoded = decode_spreadsheet(&unicode_text).unwrap();
    assert_eq!(
        (decoded.encoding, decoded.text.as_str()),
        ("UTF-16LE", "nome\tpreço\n")
    );

    // A byte order mark that lies is refused, naming where.
    let err = decode_spreadsheet(b"\xEF\xBB\xBFnome\nok\n\xff\n").unwrap_err();
    assert_eq!(err.offset, 11);
}

#[test]
fn the_separator_is_the_one_that_splits_every_row_alike() {
    assert_eq!(detect_separator("nome,preco\nPão,5990\n"), b',');
    assert_eq!(
        detect_separator("nome;preco\nPão;59,90\nBolo;1.234,56\n"),
        b';'
    );
    assert_eq!(detect_separator("nome\tpreco\nPão\t59,90\n"), b'\t');
    // Quoted cells count as one: commas inside quotes do not split.
    assert_eq!(
        detect_separator("nome,preco\n\"Pão; com manteiga\",\"59,90\"\n"),
        b','
    );
    assert_eq!(
        detect_separator("nome;descricao\n\"Bolo\";\"Chocolate, morango\"\n"),
        b';'
    );
    // A comma in a semicolon file's prices does not make it a comma file.
    assert_eq!(detect_separator("nome;preco\nA;1,5\nB;2\n"), b';');
    // One column.
    assert_eq!(detect_separator("nome\nPão\n"), b',');
    assert_eq!(detect_separator(""), b',');
}
