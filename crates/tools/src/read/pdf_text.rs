//! A PDF page's text in reading lines: lopdf parses the page and decodes each font's strings
//! (encodings, ToUnicode maps); this walks the content stream and places the strings, starting
//! a line where the baseline moves and a space where a gap opens. lopdf's own `extract_text`
//! breaks lines only at `T*` and `ET`, so a page whose lines are placed by `Td` came out as one
//! line; pdf-extract places text as well, but took 3–10x pdftotext's time on the same pages.
//!
//! Glyph widths come from a simple font's `/Widths`; other fonts count half an em a character,
//! which only decides whether a gap is wide enough to be a space.

use crate::control::Control;
use lopdf::content::Content;
use lopdf::{Dictionary, Document, Encoding, Object, ObjectId};
use std::collections::{BTreeMap, HashSet};

/// Decompressed content of one page and the forms it draws, together: what the page may hold
/// in memory at once, against bombs (SPEC 31.4: 64 MB a call with the document itself).
pub const MAX_CONTENT: usize = 16 * 1024 * 1024;
/// Forms drawing forms: deeper than this is a loop or an attack.
const MAX_DEPTH: usize = 8;
/// Operators run for one page, its forms' included. A dense page of text has tens of
/// thousands; a detailed map a few hundred thousand.
pub const MAX_PAGE_OPS: u64 = 1_000_000;
/// Operators run for all the pages of one call.
pub const MAX_CALL_OPS: u64 = 4_000_000;
/// Operators between two looks at the call's cancel and deadline.
const CHECK_EVERY: u64 = 4096;

/// What a call may still spend on PDF content, over all its pages.
pub struct Budget<'c> {
    ops: u64,
    control: &'c Control,
}

impl<'c> Budget<'c> {
    pub fn new(control: &'c Control) -> Budget<'c> {
        Budget {
            ops: MAX_CALL_OPS,
            control,
        }
    }

    /// Whether the call was cancelled or ran out of time.
    pub fn stopped(&self) -> bool {
        self.control.is_cancelled()
    }
}

/// Why a page's text ends before its content does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// Its operators (or the call's) ran out.
    Operators,
    /// Its content and forms decompress to more than `MAX_CONTENT`.
    Content,
    /// The call was cancelled or ran out of time.
    Stopped,
}

/// A page's text, and why it stops early if it does.
pub struct PageText {
    pub text: String,
    pub cut: Option<Cut>,
}

/// `[a b c d e f]`: the PDF affine matrix.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Matrix([f32; 6]);

impl Matrix {
    const ID: Matrix = Matrix([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]);

    /// `self × m` (apply self, then m).
    fn then(self, m: Matrix) -> Matrix {
        let [a, b, c, d, e, f] = self.0;
        let [a2, b2, c2, d2, e2, f2] = m.0;
        Matrix([
            a * a2 + b * c2,
            a * b2 + b * d2,
            c * a2 + d * c2,
            c * b2 + d * d2,
            e * a2 + f * c2 + e2,
            e * b2 + f * d2 + f2,
        ])
    }

    fn translate(tx: f32, ty: f32) -> Matrix {
        Matrix([1.0, 0.0, 0.0, 1.0, tx, ty])
    }

    fn of(ops: &[Object]) -> Option<Matrix> {
        let v: Vec<f32> = ops.iter().filter_map(|o| o.as_float().ok()).collect();
        <[f32; 6]>::try_from(v.as_slice()).ok().map(Matrix)
    }
}

struct Font<'a> {
    encoding: Option<Encoding<'a>>,
    /// `/FirstChar` and `/Widths` (thousandths of an em) of a simple font.
    widths: Option<(u32, Vec<f32>)>,
    /// A composite (Type0) font: two bytes a glyph.
    composite: bool,
}

impl<'a> Font<'a> {
    fn of(doc: &'a Document, dict: &'a Dictionary) -> Font<'a> {
        let composite = dict.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type0");
        let first = dict
            .get_deref(b"FirstChar", doc)
            .and_then(Object::as_i64)
            .ok();
        let widths = dict
            .get_deref(b"Widths", doc)
            .and_then(Object::as_array)
            .ok()
            .map(|a| {
                a.iter()
                    .map(|w| {
                        doc.dereference(w)
                            .ok()
                            .and_then(|(_, o)| o.as_float().ok())
                            .unwrap_or(500.0)
                    })
                    .collect()
            });
        Font {
            encoding: dict.get_font_encoding_with_limit(doc, MAX_CONTENT).ok(),
            widths: first.zip(widths).map(|(f, w)| (f.max(0) as u32, w)),
            composite,
        }
    }

    /// The advance of `bytes` in text space units per point of font size (before Tc, Tw).
    fn width(&self, bytes: &[u8], chars: usize) -> (f32, usize) {
        match &self.widths {
            Some((first, w)) if !self.composite => {
                let sum: f32 = bytes
                    .iter()
                    .map(|&b| {
                        u32::from(b)
                            .checked_sub(*first)
                            .and_then(|i| w.get(i as usize))
                            .copied()
                            .unwrap_or(500.0)
                    })
                    .sum();
                (sum / 1000.0, bytes.len())
            }
            _ => (
                chars as f32 * 0.5,
                if self.composite {
                    bytes.len() / 2
                } else {
                    bytes.len()
                },
            ),
        }
    }
}

/// The text state and where the last string ended, in device space.
struct Walker<'a, 'b, 'c> {
    doc: &'a Document,
    budget: &'b mut Budget<'c>,
    /// Operators left for this page.
    page_ops: u64,
    /// Decompressed bytes left for this page, its content's and every form drawn's together.
    bytes: usize,
    /// The forms being drawn, outermost first: none is drawn inside itself.
    path: Vec<ObjectId>,
    /// (drawing form or the page, form) pairs drawn: each at most once a page, so forms that
    /// draw each other cost their pairs, not their paths (K forms: K², not K⁸).
    drawn: HashSet<(Option<ObjectId>, ObjectId)>,
    cut: Option<Cut>,
    out: String,
    ctm: Matrix,
    stack: Vec<Matrix>,
    tm: Matrix,
    tlm: Matrix,
    size: f32,
    leading: f32,
    char_space: f32,
    word_space: f32,
    scale: f32,
    font: Option<std::rc::Rc<Font<'a>>>,
    /// Baseline y, end x and font height of the last string shown.
    last: Option<(f32, f32, f32)>,
}

/// The text of one page, lines separated by `\n`, within what `budget` allows.
pub fn page_text(doc: &Document, page: ObjectId, budget: &mut Budget) -> lopdf::Result<PageText> {
    let fonts = doc
        .get_page_fonts(page)?
        .into_iter()
        .map(|(name, dict)| (name, std::rc::Rc::new(Font::of(doc, dict))))
        .collect();
    let content = match doc.get_page_content_with_limit(page, MAX_CONTENT) {
        Ok(c) => c,
        Err(lopdf::Error::Decompress(_)) => {
            return Ok(PageText {
                text: String::new(),
                cut: Some(Cut::Content),
            });
        }
        Err(e) => return Err(e),
    };
    let page_ops = MAX_PAGE_OPS.min(budget.ops);
    let mut w = Walker {
        doc,
        budget,
        page_ops,
        bytes: MAX_CONTENT - content.len(),
        path: Vec::new(),
        drawn: HashSet::new(),
        cut: None,
        out: String::new(),
        ctm: Matrix::ID,
        stack: Vec::new(),
        tm: Matrix::ID,
        tlm: Matrix::ID,
        size: 0.0,
        leading: 0.0,
        char_space: 0.0,
        word_space: 0.0,
        scale: 1.0,
        font: None,
        last: None,
    };
    let xobjects = page_xobjects(doc, page);
    let walked = w.walk(&content, &fonts, &xobjects);
    w.budget.ops -= page_ops - w.page_ops;
    walked?;
    Ok(PageText {
        text: w.out,
        cut: w.cut,
    })
}

type Fonts<'a> = BTreeMap<Vec<u8>, std::rc::Rc<Font<'a>>>;

fn page_xobjects(doc: &Document, page: ObjectId) -> Vec<&Dictionary> {
    let Ok((direct, ids)) = doc.get_page_resources(page) else {
        return vec![];
    };
    direct
        .into_iter()
        .chain(ids.iter().filter_map(|id| doc.get_dictionary(*id).ok()))
        .filter_map(|r| r.get_deref(b"XObject", doc).and_then(Object::as_dict).ok())
        .collect()
}

impl<'a> Walker<'a, '_, '_> {
    /// Whether the page may run one more operator; notes why not when it may not.
    fn may_run(&mut self) -> bool {
        if self.cut.is_some() {
            return false;
        }
        if self.page_ops == 0 {
            self.cut = Some(Cut::Operators);
            return false;
        }
        self.page_ops -= 1;
        if self.page_ops.is_multiple_of(CHECK_EVERY) && self.budget.stopped() {
            self.cut = Some(Cut::Stopped);
            return false;
        }
        true
    }

    /// Runs a content stream's operators one at a time as they are parsed, so a stream of
    /// millions of them never sits in memory.
    fn walk(
        &mut self,
        content: &[u8],
        fonts: &Fonts<'a>,
        xobjects: &[&'a Dictionary],
    ) -> lopdf::Result<()> {
        for op in Content::decode_iter(content) {
            let op = op?;
            if !self.may_run() {
                return Ok(());
            }
            let args = &op.operands;
            let num = |i: usize| args.get(i).and_then(|o| o.as_float().ok()).unwrap_or(0.0);
            match op.operator.as_str() {
                "q" => self.stack.push(self.ctm),
                "Q" => self.ctm = self.stack.pop().unwrap_or(self.ctm),
                "cm" => {
                    if let Some(m) = Matrix::of(args) {
                        self.ctm = m.then(self.ctm);
                    }
                }
                "BT" => {
                    self.tm = Matrix::ID;
                    self.tlm = Matrix::ID;
                }
                "Tf" => {
                    let name = args.first().and_then(|o| o.as_name().ok()).unwrap_or(b"");
                    self.font = fonts.get(name).cloned();
                    self.size = num(1);
                }
                "TL" => self.leading = num(0),
                "Tc" => self.char_space = num(0),
                "Tw" => self.word_space = num(0),
                "Tz" => self.scale = num(0) / 100.0,
                "Td" => self.move_line(num(0), num(1)),
                "TD" => {
                    self.leading = -num(1);
                    self.move_line(num(0), num(1));
                }
                "Tm" => {
                    if let Some(m) = Matrix::of(args) {
                        self.tm = m;
                        self.tlm = m;
                    }
                }
                "T*" => self.move_line(0.0, -self.leading),
                "Tj" => self.show_all(args),
                "TJ" => {
                    if let Some(items) = args.first().and_then(|o| o.as_array().ok()) {
                        self.show_all(items);
                    }
                }
                "'" => {
                    self.move_line(0.0, -self.leading);
                    self.show_all(args);
                }
                "\"" => {
                    self.word_space = num(0);
                    self.char_space = num(1);
                    self.move_line(0.0, -self.leading);
                    self.show_all(&args[args.len().min(2)..]);
                }
                "Do" if self.path.len() < MAX_DEPTH => {
                    let name = args.first().and_then(|o| o.as_name().ok()).unwrap_or(b"");
                    self.form(name, fonts, xobjects);
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A form XObject's text (page furniture and whole pages are often drawn as forms).
    fn form(&mut self, name: &[u8], fonts: &Fonts<'a>, xobjects: &[&'a Dictionary]) {
        let doc = self.doc;
        // A stream is always an indirect object: its id names the form.
        let Some((id, stream)) = xobjects.iter().find_map(|x| {
            let id = x.get(name).and_then(Object::as_reference).ok()?;
            Some((id, doc.get_object(id).and_then(Object::as_stream).ok()?))
        }) else {
            return;
        };
        if stream.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Form") {
            return; // an image
        }
        if self.path.contains(&id) || !self.drawn.insert((self.path.last().copied(), id)) {
            return;
        }
        let content = match stream.decompressed_content_with_limit(self.bytes) {
            Ok(c) => c,
            Err(lopdf::Error::Decompress(_)) => {
                self.cut = Some(Cut::Content);
                return;
            }
            Err(_) => return,
        };
        self.bytes -= content.len();
        let resources = stream
            .dict
            .get_deref(b"Resources", doc)
            .and_then(Object::as_dict)
            .ok();
        // A form without resources of its own uses its page's (PDF 1.1 style).
        let own_fonts: Option<Fonts<'a>> = resources
            .and_then(|r| r.get_deref(b"Font", doc).and_then(Object::as_dict).ok())
            .map(|f| {
                f.iter()
                    .filter_map(|(k, v)| {
                        let d = doc.dereference(v).ok()?.1.as_dict().ok()?;
                        Some((k.clone(), std::rc::Rc::new(Font::of(doc, d))))
                    })
                    .collect()
            });
        let own_xobjects: Option<Vec<&'a Dictionary>> = resources
            .and_then(|r| r.get_deref(b"XObject", doc).and_then(Object::as_dict).ok())
            .map(|x| vec![x]);
        let saved = (self.ctm, self.stack.len());
        if let Some(m) = stream
            .dict
            .get(b"Matrix")
            .and_then(Object::as_array)
            .ok()
            .and_then(|a| Matrix::of(a))
        {
            self.ctm = m.then(self.ctm);
        }
        let fonts = own_fonts.as_ref().unwrap_or(fonts);
        let xobjects = own_xobjects.as_deref().unwrap_or(xobjects);
        self.path.push(id);
        let _ = self.walk(&content, fonts, xobjects);
        self.path.pop();
        self.ctm = saved.0;
        self.stack.truncate(saved.1);
    }

    fn move_line(&mut self, tx: f32, ty: f32) {
        self.tlm = Matrix::translate(tx, ty).then(self.tlm);
        self.tm = self.tlm;
    }

    /// Strings and the numbers between them (TJ's adjustments, in thousandths of an em).
    fn show_all(&mut self, items: &[Object]) {
        for item in items {
            match item {
                Object::String(bytes, _) => self.show(bytes),
                Object::Integer(_) | Object::Real(_) => {
                    let adj = item.as_float().unwrap_or(0.0);
                    let tx = -adj / 1000.0 * self.size * self.scale;
                    self.tm = Matrix::translate(tx, 0.0).then(self.tm);
                }
                _ => {}
            }
        }
    }

    fn show(&mut self, bytes: &[u8]) {
        let Some(font) = self.font.clone() else {
            return;
        };
        let text = match &font.encoding {
            Some(enc) => enc.bytes_to_string(bytes).unwrap_or_default(),
            None => bytes.iter().map(|&b| char::from(b)).collect(),
        };
        let text: String = text
            .chars()
            .filter(|c| !c.is_control() || *c == '\t')
            .collect();
        let m = self.tm.then(self.ctm);
        let height = (self.size * (m.0[2].powi(2) + m.0[3].powi(2)).sqrt())
            .abs()
            .max(0.1);
        let (x, y) = (m.0[4], m.0[5]);
        if !text.is_empty() {
            self.place(x, y, height, &text);
        }
        let (em, glyphs) = font.width(bytes, text.chars().count());
        let spaces = if font.composite {
            0
        } else {
            bytes.iter().filter(|&&b| b == b' ').count()
        };
        let tx =
            (em * self.size + glyphs as f32 * self.char_space + spaces as f32 * self.word_space)
                * self.scale;
        self.tm = Matrix::translate(tx, 0.0).then(self.tm);
        let end = self.tm.then(self.ctm);
        if !text.is_empty() {
            self.last = Some((y, end.0[4], height));
        }
    }

    /// Starts a new line where the baseline moved, a blank line where it jumped, a space
    /// where a gap opened on the same line.
    fn place(&mut self, x: f32, y: f32, height: f32, text: &str) {
        if let Some((ly, lx, lh)) = self.last {
            let h = lh.max(height);
            let dy = (y - ly).abs();
            if dy > 0.5 * h {
                self.out.push('\n');
                if dy > 2.0 * h {
                    self.out.push('\n');
                }
            } else if (x > lx + 0.15 * h || x < lx - 2.0 * h)
                && !self.out.ends_with(char::is_whitespace)
                && !text.starts_with(char::is_whitespace)
            {
                self.out.push(' ');
            }
        }
        self.out.push_str(text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_compose_in_pdf_order() {
        let scale = Matrix([2.0, 0.0, 0.0, 2.0, 0.0, 0.0]);
        let moved = Matrix::translate(10.0, 5.0).then(scale);
        assert_eq!(moved.0[4..], [20.0, 10.0]);
        assert_eq!(Matrix::ID.then(moved), moved);
        assert_eq!(Matrix::of(&[Object::Integer(1)]), None);
    }
}
