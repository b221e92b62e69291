//! `read` of images (SPEC 18.2, 22.6, 24.2) through the binary. The images are made here with
//! the `image` crate.

use image::{DynamicImage, ImageFormat, RgbImage, RgbaImage};
use serde_json::{Value, json};
use std::io::Cursor;
use testkit::Env;

fn encode(img: &DynamicImage, format: ImageFormat) -> Vec<u8> {
    let mut out = Vec::new();
    img.write_to(Cursor::new(&mut out), format).unwrap();
    out
}

/// A smooth gradient (compresses well) of `w` x `h`.
fn gradient(w: u32, h: u32) -> DynamicImage {
    DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
    }))
}

/// Noise (does not compress): a PNG of it is about 3 bytes a pixel.
fn noise(w: u32, h: u32) -> DynamicImage {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    DynamicImage::ImageRgb8(RgbImage::from_fn(w, h, |_, _| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let b = state.to_le_bytes();
        image::Rgb([b[0], b[1], b[2]])
    }))
}

/// Standard base64, decoded independently of the tool's encoder.
fn unbase64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let bytes: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::new();
    for chunk in bytes.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &c)| n | u32::from(val(c)) << (18 - 6 * i));
        out.extend(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

fn payload(out: &testkit::Out) -> DynamicImage {
    let img = &out.data()["image"];
    let bytes = unbase64(img["base64"].as_str().unwrap());
    assert_eq!(img["bytes"], bytes.len());
    image::load_from_memory(&bytes).unwrap()
}

#[test]
fn a_small_png_is_sent_as_it_is() {
    let env = Env::new();
    let png = encode(&gradient(40, 30), ImageFormat::Png);
    env.write_file("pic.png", &png);
    let out = env.call("read", json!({"path": "pic.png"}));
    out.assert_ok();
    assert_eq!(
        out.output(),
        format!("Image pic.png: PNG, 40x30, {} B\n", png.len())
    );
    let img = &out.data()["image"];
    assert_eq!(
        (&img["mime"], &img["width"], &img["height"]),
        (&json!("image/png"), &json!(40), &json!(30))
    );
    assert_eq!(
        unbase64(img["base64"].as_str().unwrap()),
        png,
        "the file's own bytes"
    );
    assert!(img.get("original_width").is_none());
    assert_eq!(out.data()["size_bytes"], png.len());
}

#[test]
fn formats_are_told_by_content_not_by_name() {
    let env = Env::new();
    let cases = [
        ("photo.dat", ImageFormat::Jpeg, "JPEG", "image/jpeg"),
        ("anim.gif", ImageFormat::Gif, "GIF", "image/gif"),
        ("shot.webp", ImageFormat::WebP, "WebP", "image/webp"),
        ("really-a-png.jpg", ImageFormat::Png, "PNG", "image/png"),
    ];
    for (name, format, label, mime) in cases {
        let img =
            DynamicImage::ImageRgba8(RgbaImage::from_pixel(17, 9, image::Rgba([9, 8, 7, 255])));
        let img = if format == ImageFormat::Jpeg {
            DynamicImage::ImageRgb8(img.to_rgb8())
        } else {
            img
        };
        env.write_file(name, encode(&img, format));
        let out = env.call("read", json!({"path": name}));
        out.assert_ok();
        assert!(
            out.output()
                .starts_with(&format!("Image {name}: {label}, 17x9, ")),
            "{}",
            out.output()
        );
        assert_eq!(out.data()["image"]["mime"], mime);
        assert_eq!(payload(&out).width(), 17);
    }
    // a text file named like an image is text
    env.write_file("notes.png", "not a picture\n");
    let out = env.call("read", json!({"path": "notes.png"}));
    assert_eq!(out.output(), "     1\tnot a picture\n");
}

#[test]
fn a_large_image_is_downscaled_keeping_its_aspect() {
    let env = Env::new();
    env.write_file("wide.png", encode(&gradient(3000, 2000), ImageFormat::Png));
    let out = env.call("read", json!({"path": "wide.png"}));
    out.assert_ok();
    let text = out.output();
    assert!(
        text.starts_with("Image wide.png: PNG, 1568x1045, "),
        "{text}"
    );
    assert!(text.contains("(downscaled from 3000x2000, "), "{text}");
    assert_eq!(text.lines().count(), 1);
    let img = &out.data()["image"];
    assert_eq!(
        (
            &img["width"],
            &img["height"],
            &img["original_width"],
            &img["original_height"]
        ),
        (&json!(1568), &json!(1045), &json!(3000), &json!(2000))
    );
    let sent = payload(&out);
    assert_eq!((sent.width(), sent.height()), (1568, 1045));
}

#[test]
fn an_image_over_3_75_mib_is_re_encoded_as_jpeg() {
    let env = Env::new();
    let png = encode(&noise(1200, 1200), ImageFormat::Png);
    assert!(png.len() > 3_932_160, "{}", png.len());
    env.write_file("noise.png", &png);
    let out = env.call("read", json!({"path": "noise.png"}));
    out.assert_ok();
    let text = out.output();
    assert!(
        text.starts_with("Image noise.png: JPEG, 1200x1200, "),
        "{text}"
    );
    assert!(text.contains("(re-encoded from PNG, "), "{text}");
    let img = &out.data()["image"];
    assert_eq!(img["mime"], "image/jpeg");
    assert!(img["bytes"].as_u64().unwrap() <= 3_932_160);
    assert!(img.get("original_width").is_none(), "not resized");
    assert_eq!(payload(&out).width(), 1200);
}

#[test]
fn a_png_that_does_not_decode_is_binary_file() {
    let env = Env::new();
    // PNG's signature, then junk where the IHDR chunk should be
    env.write_file("broken.png", b"\x89PNG\r\n\x1a\n\0\0\0\rXXXXgarbage");
    let out = env.call("read", json!({"path": "broken.png"}));
    out.assert_err("binary_file");
    assert!(
        out.output()
            .starts_with("broken.png starts like a PNG image but does not decode"),
        "{}",
        out.output()
    );
    assert_eq!(out.json["error"]["path"], "broken.png");
}

#[test]
fn an_image_read_is_recorded() {
    let env = Env::new();
    env.write_file("logo.png", encode(&gradient(8, 8), ImageFormat::Png));
    env.call("write", json!({"path": "logo.png", "content": "x"}))
        .assert_err("not_read");
    env.call("read", json!({"path": "logo.png"})).assert_ok();
    env.call("write", json!({"path": "logo.png", "content": "x"}))
        .assert_ok();
}

#[test]
fn codexs_view_image_is_read() {
    let env = Env::new();
    env.write_file("ui.jpg", encode(&gradient(20, 10), ImageFormat::Jpeg));
    let out = env.call("view_image", json!({"path": "ui.jpg"}));
    out.assert_ok();
    assert_eq!(out.json["tool"], "read");
    assert_eq!(out.data()["image"]["mime"], "image/jpeg");
}

#[test]
fn lines_chosen_for_an_image_are_ignored_with_a_warning() {
    let env = Env::new();
    env.write_file("a.png", encode(&gradient(4, 4), ImageFormat::Png));
    let out = env.call("read", json!({"path": "a.png", "offset": 10}));
    out.assert_ok();
    let warnings: Vec<&Value> = out.data()["warnings"].as_array().unwrap().iter().collect();
    assert!(
        warnings[0]
            .as_str()
            .unwrap()
            .contains("is an image and is shown whole")
    );
}

#[test]
fn images_among_paths() {
    let env = Env::new();
    env.write_file("a.png", encode(&gradient(4, 3), ImageFormat::Png));
    env.write_file("b.txt", "text\n");
    let out = env.call("read", json!({"paths": ["a.png", "b.txt"]}));
    out.assert_ok();
    assert!(
        out.output()
            .starts_with("==> a.png <==\nImage a.png: PNG, 4x3, ")
    );
    assert_eq!(out.data()["files"][0]["image"]["width"], 4);
    assert_eq!(out.data()["files"][1]["total_lines"], 1);
}

/// A PNG chunk: length, type, data, CRC-32 of type and data.
fn chunk(kind: &[u8], data: &[u8]) -> Vec<u8> {
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend(kind);
    out.extend(data);
    out.extend(crc.sum().to_be_bytes());
    out
}

#[test]
fn huge_images_are_too_large() {
    let env = Env::new();
    // A valid header claiming 30000 x 30000 pixels (2.7 GB as RGB): refused before decoding.
    let mut ihdr = Vec::new();
    ihdr.extend(30_000u32.to_be_bytes());
    ihdr.extend(30_000u32.to_be_bytes());
    ihdr.extend([8, 2, 0, 0, 0]); // 8-bit RGB
    let mut bomb = b"\x89PNG\r\n\x1a\n".to_vec();
    bomb.extend(chunk(b"IHDR", &ihdr));
    bomb.extend(chunk(
        b"IDAT",
        &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01],
    ));
    bomb.extend(chunk(b"IEND", &[]));
    env.write_file("bomb.png", &bomb);
    let out = env.call("read", json!({"path": "bomb.png"}));
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 256 * 1024 * 1024);
    // a file over 64 MiB is not read at all (sparse: made in an instant)
    let f = std::fs::File::create(env.path("big.png")).unwrap();
    std::io::Write::write_all(&mut &f, b"\x89PNG\r\n\x1a\n").unwrap();
    f.set_len(65 * 1024 * 1024).unwrap();
    let out = env.call("read", json!({"path": "big.png"}));
    out.assert_err("too_large");
    assert_eq!(out.json["error"]["limit"], 64 * 1024 * 1024);
}

#[test]
fn through_mcp_the_image_follows_the_text_as_an_image_block() {
    let env = Env::new();
    let png = encode(&gradient(6, 5), ImageFormat::Png);
    env.write_file("a.png", &png);
    let call = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "read", "arguments": {"path": "a.png"}}});
    let out = env.run(&["mcp"], &format!("{call}\n"));
    let reply: Value = out
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|m| m["id"] == 7)
        .expect("an answer to the call");
    let content = reply["result"]["content"].as_array().unwrap();
    assert_eq!(content[0]["type"], "text");
    assert!(
        content[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("Image a.png: PNG, 6x5, ")
    );
    assert_eq!(content[1]["type"], "image");
    assert_eq!(content[1]["mimeType"], "image/png");
    assert_eq!(unbase64(content[1]["data"].as_str().unwrap()), png);
}

#[test]
fn a_many_file_read_sends_each_image_and_anthropic_results_carry_them() {
    let env = Env::new();
    let (a, b) = (
        encode(&gradient(3, 2), ImageFormat::Png),
        encode(&gradient(4, 4), ImageFormat::Png),
    );
    env.write_file("a.png", &a);
    env.write_file("b.png", &b);
    env.write_file("t.txt", "text\n");
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "read", "arguments": {"paths": ["a.png", "t.txt", "b.png"]}}});
    let out = env.run(&["mcp"], &format!("{call}\n"));
    let reply: Value = serde_json::from_str(out.stdout.lines().next().unwrap()).unwrap();
    let content = reply["result"]["content"].as_array().unwrap();
    assert_eq!(content.len(), 3, "the text, then one block per image");
    assert_eq!(unbase64(content[1]["data"].as_str().unwrap()), a);
    assert_eq!(unbase64(content[2]["data"].as_str().unwrap()), b);
    // --result-format anthropic: the tool_result's content is the text, then the image
    let out = env.run(
        &["call", "--result-format", "anthropic"],
        &json!({"type": "tool_use", "id": "toolu_1", "name": "read", "input": {"path": "a.png"}})
            .to_string(),
    );
    let block: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(block["type"], "tool_result");
    assert_eq!(block["tool_use_id"], "toolu_1");
    assert_eq!(block["content"][0]["type"], "text");
    assert_eq!(block["content"][1]["type"], "image");
    assert_eq!(block["content"][1]["source"]["media_type"], "image/png");
    assert_eq!(
        unbase64(block["content"][1]["source"]["data"].as_str().unwrap()),
        a
    );
}
