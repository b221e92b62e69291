//! The file as decoded text that maps back to its own bytes (SPEC §7, 16.5).
//!
//! Edit matches on decoded text and splices bytes: every character range it keeps is copied
//! from the file's own bytes, so a BOM, line endings and even invalid bytes outside the replaced
//! regions survive untouched; only new text is encoded, in the file's encoding, without
//! replacement. The encoding is read's (SPEC 16.4), so edit matches what read showed.
//!
//! Valid UTF-8 maps byte for byte. Other encodings map through line starts: a newline unit is
//! always its own character in every encoding read can choose (it is never a trail byte, and a
//! decoder meeting one mid-sequence emits U+FFFD and then the newline), so each line decodes on
//! its own and only the line holding a boundary is walked character by character.

use encoding_rs::{EncoderResult, Encoding, UTF_8};
use loopr_text::{self as text, Bom};
use std::borrow::Cow;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Utf8,
    Utf16 { le: bool },
    Legacy(&'static Encoding),
}

#[derive(Debug)]
pub struct Doc<'a> {
    bytes: &'a [u8],
    pub codec: Codec,
    /// Bytes of BOM before the text.
    bom: usize,
    /// The decoded text, without the BOM.
    pub text: Cow<'a, str>,
    /// The encoding as read names it (`utf-8`, `utf-8-bom`, `utf-16le`, `shift_jis`, …).
    pub name: String,
    /// Whether the decoder met bytes it could not decode (they show as U+FFFD).
    pub lossy: bool,
    /// Line starts in the text and in the file, for encodings that do not map byte for byte.
    map: Option<(Vec<usize>, Vec<usize>)>,
}

/// A piece of the new text: a range of the decoded original, or new text.
#[derive(Debug, Clone, Copy)]
pub enum Part<'p> {
    Keep(usize, usize),
    Put(&'p str),
}

/// Why the new content could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpliceError {
    /// new text holds a character the file's encoding cannot represent.
    Unencodable(char),
    /// A kept boundary falls inside an undecodable byte sequence, or the result would read back
    /// differently; writing it would change bytes outside the replaced regions.
    Unmappable,
}

impl<'a> Doc<'a> {
    pub fn decode(bytes: &'a [u8]) -> Doc<'a> {
        let legacy = |enc: &'static Encoding, bom: usize| {
            let (text, lossy) = enc.decode_without_bom_handling(&bytes[bom..]);
            (Codec::Legacy(enc), bom, text, lossy)
        };
        let utf16 = |le: bool| {
            let (text, lossy) = decode_utf16(&bytes[2..], le);
            (Codec::Utf16 { le }, 2, Cow::Owned(text), lossy)
        };
        let ((codec, bom, text, lossy), name) = match text::sniff_bom(bytes) {
            Bom::Utf16Le => (utf16(true), "utf-16le".to_string()),
            Bom::Utf16Be => (utf16(false), "utf-16be".to_string()),
            Bom::Utf8 => match std::str::from_utf8(&bytes[3..]) {
                Ok(text) => return Doc::utf8(bytes, text, 3, "utf-8-bom"),
                Err(_) => (legacy(UTF_8, 3), "utf-8-bom".to_string()),
            },
            Bom::None => match std::str::from_utf8(bytes) {
                Ok(text) => return Doc::utf8(bytes, text, 0, "utf-8"),
                Err(_) => {
                    let name = text::encoding_name(bytes);
                    let enc =
                        Encoding::for_label(name.as_bytes()).unwrap_or(encoding_rs::WINDOWS_1252);
                    (legacy(enc, 0), name)
                }
            },
        };
        let dec = starts_after(memchr::memchr_iter(b'\n', text.as_bytes()), 0);
        let src = starts_after(newline_units(bytes, bom, codec), bom);
        Doc {
            bytes,
            codec,
            bom,
            text,
            name,
            lossy,
            map: Some((dec, src)),
        }
    }

    /// Valid UTF-8 (after a BOM of `bom` bytes): the text is the bytes, validated once.
    fn utf8(bytes: &'a [u8], text: &'a str, bom: usize, name: &str) -> Doc<'a> {
        Doc {
            bytes,
            codec: Codec::Utf8,
            bom,
            text: Cow::Borrowed(text),
            name: name.to_string(),
            lossy: false,
            map: None,
        }
    }

    /// Whether text offsets are byte offsets (after the BOM): valid UTF-8.
    pub fn maps_bytes(&self) -> bool {
        self.codec == Codec::Utf8
    }

    pub fn bom(&self) -> &[u8] {
        &self.bytes[..self.bom]
    }

    /// The file's byte offset of text offset `dec` (a character boundary), or `None` when it
    /// falls inside the bytes of one undecodable sequence.
    pub fn src_offset(&self, dec: usize) -> Option<usize> {
        let Some((dec_starts, src_starts)) = &self.map else {
            return Some(dec + self.bom);
        };
        if dec_starts.len() != src_starts.len() {
            return None; // cannot happen by the newline argument above; refuse rather than guess
        }
        let line = dec_starts.partition_point(|&s| s <= dec) - 1;
        let (d0, s0) = (dec_starts[line], src_starts[line]);
        if dec == d0 {
            return Some(s0);
        }
        let unit = if matches!(self.codec, Codec::Utf16 { .. }) {
            2
        } else {
            1
        };
        let s1 = match src_starts.get(line + 1) {
            Some(&next) => next - unit,
            None => self.bytes.len(),
        };
        let line_bytes = &self.bytes[s0..s1];
        let at = match self.codec {
            Codec::Utf16 { le } => walk_utf16(line_bytes, le, dec - d0),
            Codec::Legacy(enc) => walk_decoder(enc, line_bytes, dec - d0),
            Codec::Utf8 => Some(dec - d0),
        };
        at.map(|a| s0 + a)
    }

    /// `s` in the file's encoding, or the first character it cannot hold.
    pub fn encode(&self, s: &str) -> Result<Vec<u8>, char> {
        match self.codec {
            Codec::Utf8 => Ok(s.as_bytes().to_vec()),
            Codec::Utf16 { le } => Ok(s
                .encode_utf16()
                .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                .collect()),
            Codec::Legacy(enc) if enc == UTF_8 => Ok(s.as_bytes().to_vec()),
            Codec::Legacy(enc) => {
                let mut encoder = enc.new_encoder();
                let cap = encoder
                    .max_buffer_length_from_utf8_without_replacement(s.len())
                    .unwrap_or(s.len() * 4 + 16);
                let mut out = vec![0u8; cap];
                let (result, _, written) =
                    encoder.encode_from_utf8_without_replacement(s, &mut out, true);
                match result {
                    EncoderResult::InputEmpty => {
                        out.truncate(written);
                        Ok(out)
                    }
                    EncoderResult::Unmappable(c) => Err(c),
                    // The buffer was sized for the worst case.
                    EncoderResult::OutputFull => Err('\u{FFFD}'),
                }
            }
        }
    }

    /// The first character of `s` the file's encoding cannot hold.
    pub fn unencodable(&self, s: &str) -> Option<char> {
        match self.codec {
            Codec::Legacy(enc) if enc != UTF_8 => self.encode(s).err(),
            _ => None,
        }
    }

    /// The new file: the BOM, then each part — kept text as the file's own bytes, new text
    /// encoded. The result is decoded again and compared with `expected`, so no mapping slip
    /// can reach the disk.
    pub fn splice<'p>(
        &self,
        parts: impl Iterator<Item = Part<'p>>,
        expected: &str,
    ) -> Result<Vec<u8>, SpliceError> {
        let mut out = Vec::with_capacity(self.bytes.len() + 64);
        out.extend_from_slice(&self.bytes[..self.bom]);
        for part in parts {
            match part {
                Part::Keep(a, b) => {
                    let sa = self.src_offset(a).ok_or(SpliceError::Unmappable)?;
                    let sb = self.src_offset(b).ok_or(SpliceError::Unmappable)?;
                    out.extend_from_slice(&self.bytes[sa..sb]);
                }
                Part::Put(s) => out.extend(self.encode(s).map_err(SpliceError::Unencodable)?),
            }
        }
        let same = match self.codec {
            Codec::Utf8 => true, // byte for byte by construction
            Codec::Utf16 { le } => decode_utf16(&out[self.bom..], le).0 == expected,
            Codec::Legacy(enc) => enc.decode_without_bom_handling(&out[self.bom..]).0 == expected,
        };
        if same {
            Ok(out)
        } else {
            Err(SpliceError::Unmappable)
        }
    }
}

/// Offsets just after each newline, with `first` in front.
fn starts_after(newlines: impl Iterator<Item = usize>, first: usize) -> Vec<usize> {
    std::iter::once(first)
        .chain(newlines.map(|i| i + 1))
        .collect()
}

/// Offsets of the last byte of each newline unit of the file: a `0x0A` byte, or in UTF-16 a
/// `0x000A` code unit on a code-unit boundary.
fn newline_units(bytes: &[u8], bom: usize, codec: Codec) -> Box<dyn Iterator<Item = usize> + '_> {
    let lf = memchr::memchr_iter(b'\n', bytes).filter(move |&i| i >= bom);
    match codec {
        Codec::Utf16 { le } => Box::new(lf.filter_map(move |i| {
            // the unit's first byte: 0A 00 in LE, 00 0A in BE
            let first = if le { i } else { i.checked_sub(1)? };
            let other = if le { i + 1 } else { first };
            let aligned = first >= bom && (first - bom).is_multiple_of(2);
            (aligned && bytes.get(other) == Some(&0)).then_some(first + 1)
        })),
        _ => Box::new(lf),
    }
}

fn utf16_units(b: &[u8], le: bool) -> impl Iterator<Item = u16> + '_ {
    b.chunks_exact(2).map(move |p| {
        let pair = [p[0], p[1]];
        if le {
            u16::from_le_bytes(pair)
        } else {
            u16::from_be_bytes(pair)
        }
    })
}

/// UTF-16 as read decodes it: a lone surrogate or a final odd byte becomes U+FFFD.
fn decode_utf16(b: &[u8], le: bool) -> (String, bool) {
    let mut lossy = false;
    let mut s: String = char::decode_utf16(utf16_units(b, le))
        .map(|r| {
            r.unwrap_or_else(|_| {
                lossy = true;
                '\u{FFFD}'
            })
        })
        .collect();
    if b.len() % 2 == 1 {
        s.push('\u{FFFD}');
        lossy = true;
    }
    (s, lossy)
}

/// The byte offset in a UTF-16 line where `target` bytes of its decoded text end.
fn walk_utf16(line: &[u8], le: bool, target: usize) -> Option<usize> {
    let (mut d, mut s) = (0, 0);
    for r in char::decode_utf16(utf16_units(line, le)) {
        let (chars, units) = match r {
            Ok(c) => (c.len_utf8(), c.len_utf16()),
            Err(_) => ('\u{FFFD}'.len_utf8(), 1),
        };
        d += chars;
        s += units * 2;
        if d >= target {
            return (d == target).then_some(s);
        }
    }
    (d + 3 == target && line.len() % 2 == 1).then_some(line.len())
}

/// The same for a legacy encoding, fed to its decoder one byte at a time: each output marks a
/// character boundary after the bytes consumed so far.
fn walk_decoder(enc: &'static Encoding, line: &[u8], target: usize) -> Option<usize> {
    let mut decoder = enc.new_decoder_without_bom_handling();
    let mut buf = [0u8; 64];
    let mut d = 0;
    for (i, &b) in line.iter().enumerate() {
        let (_, _, written, _) = decoder.decode_to_utf8(&[b], &mut buf, false);
        if written == 0 {
            continue;
        }
        // A malformed sequence ended by an ASCII byte yields U+FFFD and then that byte itself:
        // the boundary between them lies before this byte.
        if written > 1 && b < 0x80 && buf[written - 1] == b && d + written - 1 == target {
            return Some(i);
        }
        d += written;
        if d >= target {
            return (d == target).then_some(i + 1);
        }
    }
    let (_, _, written, _) = decoder.decode_to_utf8(&[], &mut buf, true);
    (d + written == target).then_some(line.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replaces `old` (once) in the decoded text and splices.
    fn replace(bytes: &[u8], old: &str, new: &str) -> Result<Vec<u8>, SpliceError> {
        let doc = Doc::decode(bytes);
        let a = doc.text.find(old).expect("old in text");
        let b = a + old.len();
        let expected = format!("{}{new}{}", &doc.text[..a], &doc.text[b..]);
        let parts = [
            Part::Keep(0, a),
            Part::Put(new),
            Part::Keep(b, doc.text.len()),
        ];
        doc.splice(parts.into_iter(), &expected)
    }

    #[test]
    fn utf8_with_and_without_bom() {
        assert_eq!(replace(b"a\nb\n", "b", "c").unwrap(), b"a\nc\n");
        let doc = Doc::decode(b"\xEF\xBB\xBFhi\n");
        assert_eq!(
            (doc.text.as_ref(), doc.name.as_str()),
            ("hi\n", "utf-8-bom")
        );
        assert_eq!(
            replace(b"\xEF\xBB\xBFhi\n", "hi", "yo").unwrap(),
            b"\xEF\xBB\xBFyo\n"
        );
    }

    #[test]
    fn invalid_bytes_elsewhere_survive() {
        // A BOM says UTF-8, so the stray bytes are undecodable: U+FFFD in text, kept on disk.
        let bytes = b"\xEF\xBB\xBFbad \xFF\xFE here\nfix me\r\nend \xC3\n";
        let doc = Doc::decode(bytes);
        assert!(doc.lossy);
        assert_eq!(
            doc.text,
            "bad \u{FFFD}\u{FFFD} here\nfix me\r\nend \u{FFFD}\n"
        );
        let out = replace(bytes, "fix me", "fixed").unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFbad \xFF\xFE here\nfixed\r\nend \xC3\n");
        // on the same line as the invalid bytes too
        let out = replace(bytes, "here", "there").unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFbad \xFF\xFE there\nfix me\r\nend \xC3\n");
        let out = replace(bytes, "end", "END").unwrap();
        assert_eq!(out, b"\xEF\xBB\xBFbad \xFF\xFE here\nfix me\r\nEND \xC3\n");
    }

    #[test]
    fn windows_1252_is_edited_in_its_own_encoding() {
        let bytes = b"caf\xe9 \x96 na\xefve\nprice: 5\x80\n";
        let doc = Doc::decode(bytes);
        assert_eq!(doc.name, "windows-1252");
        assert_eq!(doc.text, "café – naïve\nprice: 5€\n");
        let out = replace(bytes, "naïve", "über").unwrap();
        assert_eq!(out, b"caf\xe9 \x96 \xfcber\nprice: 5\x80\n");
        assert_eq!(
            replace(bytes, "5€", "5 → 6"),
            Err(SpliceError::Unencodable('→'))
        );
        assert_eq!(doc.unencodable("ok é"), None);
        assert_eq!(doc.unencodable("日本"), Some('日'));
    }

    #[test]
    fn shift_jis_maps_multibyte_characters() {
        let (bytes, _, _) =
            encoding_rs::SHIFT_JIS.encode("日本語のテキストです。\nこれはテストです。\n");
        let doc = Doc::decode(&bytes);
        assert_eq!(doc.name, "shift_jis");
        let out = replace(&bytes, "テスト", "試験").unwrap();
        let (want, _, _) =
            encoding_rs::SHIFT_JIS.encode("日本語のテキストです。\nこれは試験です。\n");
        assert_eq!(out, want.as_ref());
    }

    #[test]
    fn utf16_is_written_back_as_utf16() {
        for le in [true, false] {
            let mut bytes = if le {
                vec![0xFF, 0xFE]
            } else {
                vec![0xFE, 0xFF]
            };
            let body = "héllo 😀\r\nworld\n";
            let enc = |s: &str| -> Vec<u8> {
                s.encode_utf16()
                    .flat_map(|u| if le { u.to_le_bytes() } else { u.to_be_bytes() })
                    .collect()
            };
            bytes.extend(enc(body));
            let doc = Doc::decode(&bytes);
            assert_eq!(doc.text, body);
            let out = replace(&bytes, "world", "wörld 🎉").unwrap();
            assert_eq!(out[..2], bytes[..2]);
            assert_eq!(out[2..], enc("héllo 😀\r\nwörld 🎉\n")[..]);
            let out = replace(&bytes, "😀", "x").unwrap();
            assert_eq!(out[2..], enc("héllo x\r\nworld\n")[..]);
        }
    }

    #[test]
    fn utf16_lone_surrogates_survive() {
        // "a", a lone high surrogate, "b\n", "c"
        let bytes = [0xFF, 0xFE, b'a', 0, 0x00, 0xD8, b'b', 0, b'\n', 0, b'c', 0];
        let doc = Doc::decode(&bytes);
        assert_eq!(doc.text, "a\u{FFFD}b\nc");
        let out = replace(&bytes, "c", "d").unwrap();
        assert_eq!(out[..10], bytes[..10]);
        assert_eq!(out[10..], [b'd', 0]);
        let out = replace(&bytes, "b", "B").unwrap();
        assert_eq!(out[..6], bytes[..6]);
    }

    #[test]
    fn boundaries_around_an_undecodable_sequence() {
        // BOM, "ab", a truncated 3-byte sequence, "yz", then an unfinished one at the end.
        let bytes = b"\xEF\xBB\xBFab\xE3\x81yz\n\xE3";
        let doc = Doc::decode(bytes);
        assert_eq!(doc.text, "ab\u{FFFD}yz\n\u{FFFD}");
        // before and after U+FFFD are real boundaries, even though the decoder emits U+FFFD and
        // `y` at once
        assert_eq!(doc.src_offset(2), Some(5));
        assert_eq!(doc.src_offset(5), Some(7));
        assert_eq!(doc.src_offset(7), Some(9));
        assert_eq!(doc.src_offset(8), Some(10));
        assert_eq!(doc.src_offset(11), Some(11));
        // inside the three bytes of U+FFFD is not
        assert_eq!(doc.src_offset(3), None);
        assert_eq!(
            replace(bytes, "yz", "Y").unwrap(),
            b"\xEF\xBB\xBFab\xE3\x81Y\n\xE3"
        );
    }
}
