//! Imports of spreadsheets as people save them: the encoding and separator detected, amounts
//! read as written, the dry run's preview and true counts, and an export edited in its
//! readable price column going back in.

use reqwest::StatusCode;
use serde_json::{Value, json};
use vitrine_shared::dual_test;

use crate::{
    collections::{data_url, export, import},
    helpers::{Session, TestApp, expect_error, json_ok, value_of},
};

/// What Brazilian Excel saves as "CSV (separado por vírgulas)": Windows-1252, `;`, CRLF.
const EXCEL_SHEET: &[u8] =
    include_bytes!("../../../dashboard/e2e/fixtures/produtos-excel-pt-br.csv");

/// A collection shaped like the bakery template's "Produtos": a required BRL price and a
/// summary. Answers the collection and the price field's id.
async fn products(app: &TestApp, s: &Session) -> (i64, i64) {
    let project = app.create_project(s, "Doces da Bruna").await["id"]
        .as_i64()
        .unwrap();
    let table = json_ok(app.post(s, "/api/tables", json!({"project_id": project, "name": "Produtos", "meta": {"plural": "Produtos", "singular": "Produto"}})).await).await["id"]
        .as_i64()
        .unwrap();
    let price = json_ok(app.post(s, "/api/fields", json!({"table_id": table, "name": "Preço", "type": "currency", "required": "1", "meta": {"symbol": "R$", "format": "(symbol) 9.999,99"}})).await).await["id"]
        .as_i64()
        .unwrap();
    json_ok(
        app.post(
            s,
            "/api/fields",
            json!({"table_id": table, "name": "Resumo", "type": "textarea"}),
        )
        .await,
    )
    .await;
    (table, price)
}

/// `POST /api/tables/{table}/import` with `dryRun`.
async fn dry_run(app: &TestApp, s: &Session, table: i64, name: &str, bytes: &[u8]) -> Value {
    json_ok(
        app.post(
            s,
            &format!("/api/tables/{table}/import"),
            json!({"name": name, "content": data_url("text/csv", bytes), "dryRun": true}),
        )
        .await,
    )
    .await
}

/// The records' names and stored prices, by name.
async fn prices(app: &TestApp, s: &Session, table: i64, price: i64) -> Vec<(String, Value)> {
    let list = json_ok(app.get(s, &format!("/api/data/{table}?limit=100")).await).await;
    let mut out = Vec::new();
    for p in list["posts"].as_array().unwrap() {
        let post = json_ok(app.get(s, &format!("/api/posts/{}", p["id"])).await).await;
        out.push((
            post["name"].as_str().unwrap().to_string(),
            value_of(&post, price),
        ));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Counts of an import's answer: inserted, updated, unchanged, refused.
fn counts(answer: &Value) -> [i64; 4] {
    ["inserted", "updated", "unchanged", "refused"].map(|k| answer[k].as_i64().unwrap())
}

dual_test!(
    async fn a_brazilian_excel_sheet_is_previewed_then_imported_with_prices_as_written(
        app: TestApp,
    ) {
        let s = app.register("excel@example.com").await;
        let (table, price) = products(&app, &s).await;
        assert!(EXCEL_SHEET.windows(2).any(|w| w == b"\r\n"));
        assert!(
            EXCEL_SHEET.contains(&0xE3),
            "ã as Windows-1252 writes it, not UTF-8"
        );

        let preview = dry_run(&app, &s, table, "produtos.csv", EXCEL_SHEET).await;
        assert_eq!(preview["dryRun"], true);
        assert_eq!(
            (
                &preview["format"],
                &preview["encoding"],
                &preview["separator"],
                &preview["bom"]
            ),
            (
                &json!("csv"),
                &json!("windows-1252"),
                &json!(";"),
                &json!(false)
            ),
            "{preview}"
        );
        assert_eq!(counts(&preview), [3, 0, 0, 0], "{preview}");
        let rows = preview["preview"].as_array().unwrap();
        let shown: Vec<(&str, &str, &str, Value, &str)> = rows
            .iter()
            .map(|r| {
                let cell = &r["cells"][0];
                (
                    r["name"].as_str().unwrap(),
                    r["action"].as_str().unwrap(),
                    cell["written"].as_str().unwrap(),
                    cell["stored"].clone(),
                    cell["display"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            shown,
            [
                (
                    "Pão de queijo da Bruna",
                    "insert",
                    "59",
                    json!(5900),
                    "R$ 59,00"
                ),
                (
                    "Bolo de maçã com canela",
                    "insert",
                    "59,90",
                    json!(5990),
                    "R$ 59,90"
                ),
                (
                    "Cesta de café especial",
                    "insert",
                    "1.234,56",
                    json!(123456),
                    "R$ 1.234,56"
                ),
            ]
        );
        assert_eq!(preview["columns"][0]["name"], "Preço");
        assert!(
            prices(&app, &s, table, price).await.is_empty(),
            "the dry run wrote nothing"
        );

        let done = json_ok(import(&app, &s, table, "produtos.csv", EXCEL_SHEET).await).await;
        assert_eq!(done["dryRun"], false);
        assert_eq!(
            counts(&done),
            counts(&preview),
            "the import does what its preview said"
        );
        assert_eq!(
            prices(&app, &s, table, price).await,
            [
                ("Bolo de maçã com canela".to_string(), json!(5990)),
                ("Cesta de café especial".to_string(), json!(123456)),
                ("Pão de queijo da Bruna".to_string(), json!(5900)),
            ]
        );
    }
);

dual_test!(
    async fn separators_and_encodings_are_detected_and_quotes_respected(app: TestApp) {
        let s = app.register("sep@example.com").await;
        let (table, _) = products(&app, &s).await;
        let utf8_bom_semicolon = "\u{feff}nome;preco;resumo\nPão;\"59,90\";\"a; b\"\n";
        let comma_quoted = "name,Preço,Resumo\n\"Pão, o de queijo\",\"1.234,56\",x\n";
        let tab = "nome\tPreço\nPão\tR$ 59\n";
        for (file, encoding, bom, separator, written, stored) in [
            (utf8_bom_semicolon, "UTF-8", true, ";", "59,90", 5990),
            (comma_quoted, "UTF-8", false, ",", "1.234,56", 123456),
            (tab, "UTF-8", false, "tab", "R$ 59", 5900),
        ] {
            let answer = dry_run(&app, &s, table, "p.csv", file.as_bytes()).await;
            assert_eq!(
                (&answer["encoding"], &answer["bom"], &answer["separator"]),
                (&json!(encoding), &json!(bom), &json!(separator)),
                "{file:?}: {answer}"
            );
            let cell = &answer["preview"][0]["cells"][0];
            assert_eq!(
                (&cell["written"], &cell["stored"]),
                (&json!(written), &json!(stored))
            );
        }
        let answer = dry_run(&app, &s, table, "p.csv", comma_quoted.as_bytes()).await;
        assert_eq!(answer["preview"][0]["name"], "Pão, o de queijo");
        assert_eq!(counts(&answer), [1, 0, 0, 0]);
    }
);

dual_test!(
    async fn the_dry_run_counts_every_row_and_names_each_refused_one_writing_nothing(app: TestApp) {
        let s = app.register("contas@example.com").await;
        let (table, price) = products(&app, &s).await;
        let seed = "name,slug,preco\nBolo,bolo,\"39,00\"\nTorta,torta,45\n";
        assert_eq!(
            counts(&json_ok(import(&app, &s, table, "a.csv", seed.as_bytes()).await).await),
            [2, 0, 0, 0]
        );
        let before = prices(&app, &s, table, price).await;
        // Bolo's price changes, Torta's is the same written another way, Café is new, and two
        // amounts cannot be read.
        let file = "name;slug;preco\nBolo;bolo;42\nTorta;torta;R$ 45,00\nCafé;cafe;1,5\nPudim;pudim;12,3x\nQuindim;quindim;59,999\n";
        let answer = dry_run(&app, &s, table, "b.csv", file.as_bytes()).await;
        assert_eq!(counts(&answer), [1, 1, 1, 2], "{answer}");
        let problems: Vec<(i64, &str, &str, &str)> = answer["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    p["row"].as_i64().unwrap(),
                    p["column"].as_str().unwrap(),
                    p["code"].as_str().unwrap(),
                    p["params"]["value"].as_str().unwrap(),
                )
            })
            .collect();
        assert_eq!(
            problems,
            [
                (4, "preco", "value_amount_unreadable", "12,3x"),
                (5, "preco", "value_amount_decimals", "59,999"),
            ]
        );
        assert_eq!(answer["problems"][0]["params"]["example"], "1.234,56");
        let actions: Vec<&str> = answer["preview"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["action"].as_str().unwrap())
            .collect();
        assert_eq!(
            actions,
            ["update", "unchanged", "insert", "refused", "refused"]
        );
        assert_eq!(answer["preview"][2]["cells"][0]["display"], "R$ 1,50");
        assert_eq!(
            prices(&app, &s, table, price).await,
            before,
            "the dry run wrote nothing"
        );

        // The real import of the same file: all or nothing, each refused row named, never a 500.
        let res = import(&app, &s, table, "b.csv", file.as_bytes()).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        assert_eq!(body["error"], "value_amount_unreadable", "{body}");
        assert_eq!(body["details"].as_array().unwrap().len(), 2, "{body}");
        assert_eq!(prices(&app, &s, table, price).await, before);

        // Fixed, it answers what its preview says, and stores that.
        let fixed = file.replace("12,3x", "12,30").replace("59,999", "59,99");
        let preview = dry_run(&app, &s, table, "b.csv", fixed.as_bytes()).await;
        assert_eq!(counts(&preview), [3, 1, 1, 0]);
        let done = json_ok(import(&app, &s, table, "b.csv", fixed.as_bytes()).await).await;
        assert_eq!(counts(&done), counts(&preview));
        assert_eq!(
            prices(&app, &s, table, price).await,
            [
                ("Bolo".to_string(), json!(4200)),
                ("Café".to_string(), json!(150)),
                ("Pudim".to_string(), json!(1230)),
                ("Quindim".to_string(), json!(5999)),
                ("Torta".to_string(), json!(4500)),
            ]
        );
        // The same file again changes nothing, and says so.
        let again = json_ok(import(&app, &s, table, "b.csv", fixed.as_bytes()).await).await;
        assert_eq!(counts(&again), [0, 0, 5, 0]);
    }
);

dual_test!(
    async fn an_export_edited_in_its_readable_price_column_is_what_goes_back_in(app: TestApp) {
        let s = app.register("volta@example.com").await;
        let (table, price) = products(&app, &s).await;
        json_ok(import(&app, &s, table, "p.csv", EXCEL_SHEET).await).await;
        let csv = export(&app, &s, table, "csv").await;
        let mut reader = csv::Reader::from_reader(csv.as_bytes());
        let header = reader.headers().unwrap().clone();
        let column = header.iter().position(|h| h == "preco").unwrap();
        assert!(
            !header.iter().any(|h| h.contains("formatted")),
            "{header:?}"
        );
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        let written: Vec<&str> = rows.iter().map(|r| r.get(column).unwrap()).collect();
        assert_eq!(
            written,
            ["59,00", "59,90", "1.234,56"],
            "amounts as people write them"
        );

        // The owner changes the basket's price to "59" in the spreadsheet.
        let mut writer = csv::Writer::from_writer(Vec::new());
        writer.write_record(&header).unwrap();
        for row in &rows {
            let mut cells: Vec<String> = row.iter().map(String::from).collect();
            if cells[column] == "1.234,56" {
                cells[column] = "59".into();
            }
            writer.write_record(&cells).unwrap();
        }
        let edited = writer.into_inner().unwrap();
        let preview = dry_run(&app, &s, table, "p.csv", &edited).await;
        assert_eq!(counts(&preview), [0, 1, 2, 0], "{preview}");
        let done = json_ok(import(&app, &s, table, "p.csv", &edited).await).await;
        assert_eq!(counts(&done), [0, 1, 2, 0]);
        let stored = prices(&app, &s, table, price).await;
        assert_eq!(
            stored[1],
            ("Cesta de café especial".to_string(), json!(5900))
        );
        assert!(
            export(&app, &s, table, "csv").await.contains(",\"59,00\","),
            "R$ 59,00 again"
        );

        // A file in the older export's shape (cents, then `preco:formatted`): the readable
        // column, when filled, is the amount; else the cents are.
        let slug = &rows[2][1];
        let legacy = format!(
            "name,slug,preco,preco:formatted\nCesta de café especial,{slug},5900,\"R$ 75,00\"\n"
        );
        let done = json_ok(import(&app, &s, table, "p.csv", legacy.as_bytes()).await).await;
        assert_eq!(counts(&done), [0, 1, 0, 0]);
        assert_eq!(prices(&app, &s, table, price).await[1].1, json!(7500));
        let legacy =
            format!("name,slug,preco,preco:formatted\nCesta de café especial,{slug},8000,\n");
        json_ok(import(&app, &s, table, "p.csv", legacy.as_bytes()).await).await;
        assert_eq!(prices(&app, &s, table, price).await[1].1, json!(8000));
    }
);

dual_test!(
    async fn a_file_that_cannot_be_read_is_refused_by_its_dry_run_too(app: TestApp) {
        let s = app.register("ilegivel@example.com").await;
        let (table, _) = products(&app, &s).await;
        let res = app
            .post(
                &s,
                &format!("/api/tables/{table}/import"),
                json!({"name": "p.csv", "content": data_url("text/csv", b"nome;cor\nA;azul\n"), "dryRun": true}),
            )
            .await;
        let message = expect_error(res, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert!(message.contains("Unknown column \"cor\""), "{message}");
    }
);

dual_test!(
    async fn a_large_file_is_validated_in_chunks_and_answered_as_one_pass(app: TestApp) {
        // 6,000 rows: three chunks of 2,048 rows, validated and planned one after another.
        // Every 20th amount is unreadable: 300 refused rows, spread over every chunk.
        let s = app.register("grande@example.com").await;
        let (table, _) = products(&app, &s).await;
        let mut file = String::from("name;slug;preco\n");
        for i in 1..=6_000 {
            let price = if i % 20 == 0 {
                "12,3x".into()
            } else {
                format!("{i},50")
            };
            file.push_str(&format!("Item {i};item-{i};{price}\n"));
        }
        let answer = dry_run(&app, &s, table, "grande.csv", file.as_bytes()).await;
        assert_eq!(
            counts(&answer),
            [5_700, 0, 0, 300],
            "{}",
            answer["problems"]
        );
        // The list is capped at 200 and in row order across the chunks: rows 20, 40 … 4,000.
        let rows: Vec<i64> = answer["problems"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["row"].as_i64().unwrap())
            .collect();
        assert_eq!(rows, (1..=200).map(|k| k * 20).collect::<Vec<i64>>());
        // The preview's first rows come from the first chunk, as written.
        assert_eq!(
            answer["preview"][0]["name"], "Item 1",
            "{}",
            answer["preview"]
        );

        // The import itself: refused whole, naming the first of the same rows; nothing written.
        let res = import(&app, &s, table, "grande.csv", file.as_bytes()).await;
        assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let body: Value = res.json().await.unwrap();
        let rows: Vec<i64> = body["details"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["row"].as_i64().unwrap())
            .collect();
        // An error names its first 20 problems.
        assert_eq!(
            rows,
            (1..=20).map(|k| k * 20).collect::<Vec<i64>>(),
            "{body}"
        );
        let list = json_ok(app.get(&s, &format!("/api/data/{table}?limit=1")).await).await;
        assert_eq!(list["total"], 0, "{list}");

        // Fixed, all 6,000 go in, each with its own price.
        let fixed = file.replace("12,3x", "7,00");
        let done = json_ok(import(&app, &s, table, "grande.csv", fixed.as_bytes()).await).await;
        assert_eq!(counts(&done), [6_000, 0, 0, 0]);
    }
);

dual_test!(
    async fn a_row_refused_in_the_last_chunk_writes_none_of_the_chunks_before(app: TestApp) {
        // 5,000 rows: the first two chunks (4,096 rows) are read, planned and sent to the
        // database's write before the last is read. A refusal there must still write nothing.
        let s = app.register("ultima@example.com").await;
        let (table, _) = products(&app, &s).await;
        let mut good = String::from("name;slug;preco\n");
        for i in 1..=4_999 {
            good.push_str(&format!("Item {i};item-{i};{i},50\n"));
        }
        let cases = [
            // A value the record form refuses.
            ("Item 5000;item-5000;12,3x\n", "value_amount_unreadable"),
            // A slug given twice: refused by the plan, not by validation.
            ("Item 5000;item-17;3,00\n", "record_slug_repeated"),
            // A row the CSV reader cannot read, met after the rows before it were written.
            ("Item 5000;item-5000;3,00;4,00\n", "import_csv_malformed"),
        ];
        for (last, code) in cases {
            let file = format!("{good}{last}");
            let res = import(&app, &s, table, "ultima.csv", file.as_bytes()).await;
            assert_eq!(res.status(), StatusCode::UNPROCESSABLE_ENTITY, "{last}");
            let body: Value = res.json().await.unwrap();
            assert_eq!(body["details"][0]["row"], 5_000, "{body}");
            assert_eq!(body["details"][0]["code"], code, "{body}");
            let list = json_ok(app.get(&s, &format!("/api/data/{table}?limit=1")).await).await;
            assert_eq!(list["total"], 0, "{last}: {list}");
        }
        // The same file with the last row fixed goes in whole, once.
        let file = format!("{good}Item 5000;item-5000;3,00\n");
        let done = json_ok(import(&app, &s, table, "ultima.csv", file.as_bytes()).await).await;
        assert_eq!(counts(&done), [5_000, 0, 0, 0]);
        let list = json_ok(app.get(&s, &format!("/api/data/{table}?limit=1")).await).await;
        assert_eq!(list["total"], 5_000, "{list}");
        // Imported again, every row names a stored record and changes nothing: nothing is
        // written, not even a change.
        let again = json_ok(import(&app, &s, table, "ultima.csv", file.as_bytes()).await).await;
        assert_eq!(counts(&again), [0, 0, 5_000, 0]);
    }
);
