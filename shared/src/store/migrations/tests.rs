//! The migration files render to what each database has applied, and only to that.

use super::{Dialect, FILES, migrations, render};

/// The SHA-384 checksum sqlx recorded for every migration a database has applied, from the
/// time each dialect had its own folder of files. An applied migration's text may not change
/// (sqlx refuses to start when it does), so each must render to the same bytes for ever.
/// A new migration adds a line here; an old line never changes.
const POSTGRES_APPLIED: &[(&str, &str)] = &[
    (
        "0001_foundation",
        "f060c56dbcbd2a3e65c0a5f77044df62db818e48a74732c259aca383290a18c922bcb5429a89d6bad06f587c30ed5d87",
    ),
    (
        "0002_collections",
        "84b6dafb4a02ba99dc284534fa3991d012a0d7d82a0d4f0792403234f717838b1db7855ec30d9334c0bc0bad32907654",
    ),
    (
        "0003_publishing",
        "cea08637344baac1add5dea6cdd0cac60d9f1156eed409480ae63d973aa78f164deb3d8496ebd7a9a73785d9c54ac65b",
    ),
    (
        "0004_change_notify",
        "31945cfda9b3a09a8e5a32b68ab3f6b83f4b73afb30f5f83bd3b8ce1c6ec255877fc8d14a32d5519841be8479512b0a9",
    ),
    (
        "0005_tls",
        "cf059add1653e49da0797f50e099e9cc7ee12e2da8d91bf76f481cb983475b212f93f80c1de2b92c8d0a16b0219c1e30",
    ),
    (
        "0006_blocks",
        "a686f8441aa909a260bea6f5be206c22fc5bab3e0730eca019587e700a62d6abc94b3cd32812ce9156293d1bb78ba258",
    ),
    (
        "0007_billing",
        "ada653b430755a7d6786ae63e90632e9ccd5557d4c7d86165b7a4444f839d649470ac51d6535fcc02f2981adaa0ba095",
    ),
    (
        "0008_posts_json",
        "8c7f4060d3c607729e1f0f3f0b31fd80670d9f03909879e53556dd495332dab1807d46223e17e992c25a6f8d27e703f5",
    ),
    (
        "0009_edge_nodes",
        "95216d8f67ef110076a78e2fc9b5d485600abca9d5e3d08506411513dc82c678b5ee5b27b41269b862cf0bba881499fe",
    ),
    (
        "0011_domains",
        "299c0fea54ca3e5b16927ca21765ebc55688f11eb1889dda261412f91f81da00d890628b4de2f59d9bbd81576f8dd8b2",
    ),
    (
        "0012_business_blocks",
        "9d53b0c428520498624078727998d1a6d431ae87d7955fa91fc50b6f56b296806124981e9e4205516fc3ff914652b6fe",
    ),
    (
        "0013_forms_isolation",
        "83d6a44074ef67f8a3158e61bb3cc3887a522016d154d69081b6d22458b05cc8190cbb9ced2581342e8d20496864a2f1",
    ),
    (
        "0014_outbox_html",
        "48de8506eced9ae4ab4cb2e5a65b93c0d4634ef140159245500cafc33c155d6732a56943195128d94699cc93e5230f72",
    ),
    (
        "0015_conversion_events",
        "3b30e2372fdc1f13f7b4a2a7e77bccbce9b1e65ef4cd790684cabb3f8d7f71ed7e2824282f612cc1540a3b810e0b1d9e",
    ),
    (
        "0016_global_sections",
        "0301b3df8fe7148afd32ee6398f800e302e0b18065052f9a7b34bb50401a43b0ad05c07b7ac377aa7bf65fb542633ed2",
    ),
    (
        "0017_deploy_error_code",
        "005976589747c8617d6a2dde0a04e06d69e6f2445c027d45c9f0eaed3ea0fc38cacde1b900bceb96adb1a7f4ba3427d7",
    ),
    (
        "0018_storage_quotas",
        "6771030f934b1ea4bfdec4cd963cb32a35b8359c19d56fdefcf41ee00a3fcc995f82c549ea91c614da2d04679f9e7afe",
    ),
    (
        "0019_fair_mail",
        "702de692da5604054eec4513eb906c5815de37bffd579aef292d75efe5cd698bf89760323eb365da213a3098aed8876b",
    ),
    (
        "0021_photos",
        "50602f9617d9169db563ffb377e03abf43c3af4adcd60842debc5837a02d9d9c8d9a04c6ba0388ce17a26f3dfb1e3d84",
    ),
    (
        "0022_analytics",
        "e47baf9bf633ffc212b23b6d1c89edece1d71b433c38dbd25c3c65a589f7eb9ccb2d3494cfab957856f7f80ba104b5a6",
    ),
    (
        "0023_photo_avif",
        "2a61a3c3973876f3370bf8ebc2a44de6092dc1d50de7bd64fcf9b8bea7c733c1e995f8397fd88913f73de74a0783962f",
    ),
];
const SQLITE_APPLIED: &[(&str, &str)] = &[
    (
        "0001_foundation",
        "4e878795ab047ca422b882fb2aa617ef912fefb5fb8f1dff9fccb456a984b0a9f6ff1cb18ada92e78c0b607c29cfb4c2",
    ),
    (
        "0002_collections",
        "342a76b2ea2fa1977d34d106d5af99cecb9b57a031a39819b9e438c2c4ebf891328e090db0b388eba7b570bc43f37c94",
    ),
    (
        "0003_publishing",
        "67d34d4978121b2c6750da9e07cc918dbd56a7fc299e5e5f10d0e163b72a412bdf05398d99de0666f79b745a34151f15",
    ),
    (
        "0004_change_notify",
        "ad842a6153f4e194326cf9bc39af606d6ba6fbe8779202a1a4611958579c00afabe0d53910e7833fd03775558887df52",
    ),
    (
        "0005_tls",
        "b1206b5bb9a24a61823cc0629c8a08b18108421d90fb67e236a5fef437213b0bd2b91885c82f5ad09190a25f6ce9385c",
    ),
    (
        "0006_blocks",
        "cb37e7b2007fcf9482aff830f43202507f8e8f6a2945f9b10ce3ea87fb2f048a0817370132f58146f6f1c6d1b3757c5c",
    ),
    (
        "0007_billing",
        "2dcc964d6da458b60f60353b62564e81e4d5ec8ff46d594ae3abb13ff0844a9ee43704fd0f4125fd83541fcb25992fb5",
    ),
    (
        "0009_edge_nodes",
        "88f8c75413cb03f4971eca5b50e514957d192253297f6bab777600662e061322654d2191dc6e8a87994c08c2ef372e66",
    ),
    (
        "0011_domains",
        "156cb691711c37955faa34fd5fd44701ef501e71060b061a821705f1610215659d053087886e97b808210bc14d4d13f2",
    ),
    (
        "0012_business_blocks",
        "fe39154e58c4f389d42b419d6ef05175f1849d9b3182bfe090aceb605ccc9bfc5c412fcb786ab6d9836c9e4dda240e2f",
    ),
    (
        "0013_forms_isolation",
        "481c969fe629f60f4950489671d0f19b5be62dd3b08350080f677a3b62d72e05dab5eb78cc81b3dc61819b92653faf8e",
    ),
    (
        "0014_outbox_html",
        "48de8506eced9ae4ab4cb2e5a65b93c0d4634ef140159245500cafc33c155d6732a56943195128d94699cc93e5230f72",
    ),
    (
        "0015_conversion_events",
        "0673f211fce4fb2ba4e93d0506e98386cc5f3004067997d9b79136e15be55d8bd4104fc4f9601ecff2a196a49116ac86",
    ),
    (
        "0016_global_sections",
        "b6b2c875ba9cc1ac454ced52591a43c030e356df73a7d717752527c5769a89fe24605fd5b567f896ce24fa4aad666857",
    ),
    (
        "0017_deploy_error_code",
        "6182a67ae1dff335f42b8aea1260139498625a973936967e0199835ee1cbdb521c1f1554cead301abc3d8fbd8a800503",
    ),
    (
        "0018_storage_quotas",
        "142007fd3714431aee38411721a05e14d5c6674202ac4186cde22161c831acb4d07c8266315fed81246f42a1b51d8bc7",
    ),
    (
        "0019_fair_mail",
        "ee01b6b8f73ccde9199bb2f54d21a2c86d7b149abd243adffd525a363e762e728c5f79effb4af674dced7f5c67dc7e55",
    ),
    (
        "0021_photos",
        "8126518065678b9bccdaaa868ed218b6798f3556f5f65b94788780bd0486c7204b4da7a0b3b1a5be31a127d21c136832",
    ),
    (
        "0022_analytics",
        "031b46db6d3800aee543a1b287175bd6d09d43f377c3ad721dc6040b768e81b86ccc279ac192a6fb36b5d21890daf0e6",
    ),
    (
        "0023_photo_avif",
        "49ebd0fe11e8f939699ca7ab0c14fb0cbe372059c66e076ee5641b07ea48f07f1a7ee931961ab95306e22bb595a8a182",
    ),
];

fn checksums(dialect: Dialect) -> Vec<(String, String)> {
    migrations(dialect)
        .expect("the files render")
        .iter()
        .map(|m| {
            let name = format!("{:04}_{}", m.version, m.description.replace(' ', "_"));
            let hex = m.checksum.iter().map(|b| format!("{b:02x}")).collect();
            (name, hex)
        })
        .collect()
}

fn pinned(applied: &[(&str, &str)]) -> Vec<(String, String)> {
    applied
        .iter()
        .map(|(n, c)| (n.to_string(), c.to_string()))
        .collect()
}

#[test]
fn every_applied_postgres_migration_renders_to_the_text_it_was_applied_with() {
    assert_eq!(checksums(Dialect::Postgres), pinned(POSTGRES_APPLIED));
}

#[test]
fn every_applied_sqlite_migration_renders_to_the_text_it_was_applied_with() {
    assert_eq!(checksums(Dialect::Sqlite), pinned(SQLITE_APPLIED));
}

#[test]
fn every_file_in_the_folder_is_listed_and_every_listed_file_exists() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
        .expect("migrations folder")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".sql"))
        .collect();
    on_disk.sort();
    let listed: Vec<String> = FILES.iter().map(|(n, _)| format!("{n}.sql")).collect();
    assert_eq!(on_disk, listed);
}

#[test]
fn placeholders_take_each_dialects_word() {
    let template =
        "CREATE TABLE t (\n    id  {{id}},\n    at  {{time}} NOT NULL DEFAULT {{now}}\n);\n";
    assert_eq!(
        render(template, Dialect::Postgres).unwrap(),
        "CREATE TABLE t (\n    id  BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,\n    \
         at  TIMESTAMPTZ NOT NULL DEFAULT now()\n);\n"
    );
    assert_eq!(
        render(template, Dialect::Sqlite).unwrap(),
        "CREATE TABLE t (\n    id  INTEGER PRIMARY KEY AUTOINCREMENT,\n    \
         at  TEXT NOT NULL DEFAULT strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')\n);\n"
    );
}

#[test]
fn a_dialects_own_lines_reach_only_that_dialect() {
    let template =
        "SELECT 1;\n--postgres: ) STORED;\n--sqlite: ) VIRTUAL;\n--postgres:\nSELECT '{}';\n";
    assert_eq!(
        render(template, Dialect::Postgres).unwrap(),
        "SELECT 1;\n) STORED;\n\nSELECT '{}';\n"
    );
    assert_eq!(
        render(template, Dialect::Sqlite).unwrap(),
        "SELECT 1;\n) VIRTUAL;\nSELECT '{}';\n"
    );
}

#[test]
fn a_file_of_only_postgres_lines_is_no_sqlite_migration() {
    let postgres = |d| migrations(d).unwrap().iter().any(|m| m.version == 8);
    assert!(postgres(Dialect::Postgres));
    assert!(!postgres(Dialect::Sqlite));
}

#[test]
fn a_misspelt_or_unclosed_placeholder_is_an_error_not_sql() {
    assert_eq!(
        render("x {{integer}} y\n", Dialect::Sqlite),
        Err("no placeholder {{integer}}".to_string())
    );
    assert!(render("x {{int y\n", Dialect::Postgres).is_err());
}
