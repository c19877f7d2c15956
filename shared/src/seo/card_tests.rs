use super::*;

fn inputs(title: &str) -> CardInputs {
    CardInputs {
        title: title.into(),
        site_name: "Padaria da Conceição".into(),
        price: String::new(),
        theme: Theme {
            primary: "#7c2d12".into(),
            accent: "#fbbf24".into(),
            background: "#fffbeb".into(),
            text: "#1c1917".into(),
            ..Theme::default()
        },
        logo: None,
        photo: None,
    }
}

fn decoded(png: &[u8]) -> image::RgbaImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("a PNG")
        .to_rgba8()
}

fn jpeg(width: u32, height: u32) -> CardImage {
    CardImage {
        mime: "image/jpeg".into(),
        bytes: crate::testing::photos::phone_photo(width, height, 1),
    }
}

#[test]
fn a_card_is_a_1200_by_630_png_in_the_theme_colours() {
    let job = CardJob {
        inputs: inputs("Pão de queijo"),
        ..CardJob::default()
    };
    let png = render(&job).unwrap();
    let img = decoded(&png);
    assert_eq!(img.dimensions(), (1200, 630));
    // The primary band on the left, the background elsewhere.
    assert_eq!(img.get_pixel(4, 300).0, [0x7c, 0x2d, 0x12, 255]);
    assert_eq!(img.get_pixel(1190, 10).0, [0xff, 0xfb, 0xeb, 255]);
}

#[test]
fn the_logo_and_the_photo_are_drawn_and_a_site_without_them_works() {
    let bare = CardJob {
        inputs: inputs("Bolo de fubá"),
        ..CardJob::default()
    };
    let with = CardJob {
        inputs: CardInputs {
            price: "R$ 12,50".into(),
            logo: Some("uploads/1/1/a/logo.jpg".into()),
            photo: Some("uploads/1/1/b/bolo.640w.jpg".into()),
            ..inputs("Bolo de fubá")
        },
        logo: Some(jpeg(300, 100)),
        photo: Some(jpeg(640, 480)),
    };
    let (a, b) = (
        decoded(&render(&bare).unwrap()),
        decoded(&render(&with).unwrap()),
    );
    assert_eq!(b.dimensions(), (1200, 630));
    // The photo covers the right side, which is the background on a card without one.
    let bg = [0xff, 0xfb, 0xeb, 255];
    assert_eq!(a.get_pixel(950, 315).0, bg);
    assert_ne!(b.get_pixel(950, 315).0, bg);
    assert_ne!(a.get_pixel(80, 100), b.get_pixel(80, 100));
}

#[test]
fn accents_have_glyphs_of_their_own() {
    let m = Measure::bold();
    let charmap = m.font.charmap();
    for c in "çãéõêíóúÇÃÉàâ€…".chars() {
        assert!(charmap.map(c).is_some_and(|g| g.to_u32() != 0), "{c}");
    }
    // And they are drawn: "ç" is not "c".
    let draw = |t: &str| {
        decoded(
            &render(&CardJob {
                inputs: inputs(t),
                ..CardJob::default()
            })
            .unwrap(),
        )
    };
    assert_ne!(draw("Açaí"), draw("Acai"));
}

#[test]
fn a_long_title_takes_three_lines_and_ends_in_an_ellipsis() {
    let long = "Bolo de chocolate com cobertura de brigadeiro e morangos frescos ".repeat(20);
    let lines = wrap(&long, 50.0, 1056.0, TITLE_LINES);
    assert_eq!(lines.len(), 3);
    assert!(lines[2].ends_with('…'), "{lines:?}");
    for l in &lines {
        assert!(Measure::bold().width(l, 50.0) <= 1056.0, "{l}");
    }
    // A word wider than a line is cut, never drawn past the edge.
    let word = "a".repeat(500);
    let lines = wrap(&word, 68.0, 500.0, 3);
    assert_eq!(lines.len(), 3);
    assert!(
        lines
            .iter()
            .all(|l| Measure::bold().width(l, 68.0) <= 500.0)
    );
    // A short title is left alone.
    assert_eq!(
        wrap("Pão de queijo", 68.0, 1056.0, 3),
        vec!["Pão de queijo"]
    );
    // A huge title is bounded before it is measured, and still drawn.
    let huge = "Bolo ".repeat(200_000);
    let png = render(&CardJob {
        inputs: inputs(&huge),
        ..CardJob::default()
    })
    .unwrap();
    assert_eq!(decoded(&png).dimensions(), (1200, 630));
}

#[test]
fn the_name_changes_with_what_the_card_shows() {
    let a = inputs("Bolo");
    assert_eq!(a.hash(), inputs("Bolo").hash());
    assert_ne!(a.hash(), inputs("Bolo de fubá").hash());
    let priced = CardInputs {
        price: "R$ 10,00".into(),
        ..a.clone()
    };
    assert_ne!(a.hash(), priced.hash());
    let photo = CardInputs {
        photo: Some("uploads/x.jpg".into()),
        ..a.clone()
    };
    assert_ne!(a.hash(), photo.hash());
    assert_eq!(a.hash().len(), 24);
    assert_eq!(a.alt(), "Bolo | Padaria da Conceição");
}

#[test]
fn text_cannot_escape_into_the_svg_and_no_file_is_read() {
    let job = CardJob {
        inputs: inputs("</text><image xlink:href=\"/etc/passwd\"/>"),
        ..CardJob::default()
    };
    let svg = layout(&job);
    assert!(!svg.contains("<image"), "{svg}");
    assert!(render(&job).is_ok());
}
