//! Where each key of a sweep spec stands: the line of every top-level key, every block's
//! keys and every `baselines.FAMILY.KNOB`, read from the TOML's spans, so that a spec error
//! can name its line.

use serde::Deserialize;
use std::collections::BTreeMap;
use toml::{Spanned, Value};

/// The line of every key of a spec, read from the TOML's spans: top-level keys, each
/// block's keys, and `baselines.FAMILY.KNOB`.
#[derive(Debug, Default)]
pub(super) struct KeyLines {
    top: BTreeMap<String, usize>,
    /// Each block's keys and their lines.
    pub(super) blocks: Vec<BTreeMap<String, usize>>,
    baselines: BTreeMap<String, usize>,
}

/// The shape of a spec as far as key lines go: every value kept with its span.
#[derive(Deserialize, Default)]
#[serde(default)]
struct SpannedSpec {
    block: Vec<BTreeMap<String, Spanned<Value>>>,
    baselines: BTreeMap<String, Spanned<BTreeMap<String, Spanned<Value>>>>,
}

impl KeyLines {
    /// The lines of `text`'s keys; a spec whose shape is wrong (which parsing reports
    /// anyway) gives what could be read.
    pub(super) fn of(text: &str) -> KeyLines {
        let line = |spanned: &Spanned<Value>| line_at(text, spanned.span().start);
        let lines_of = |table: &BTreeMap<String, Spanned<Value>>| -> BTreeMap<String, usize> {
            table.iter().map(|(key, value)| (key.clone(), line(value))).collect()
        };
        let top = toml::from_str::<BTreeMap<String, Spanned<Value>>>(text).map(|table| lines_of(&table));
        let spanned = toml::from_str::<SpannedSpec>(text).unwrap_or_default();
        let mut baselines = BTreeMap::new();
        for (family, knobs) in &spanned.baselines {
            baselines.insert(family.clone(), line_at(text, knobs.span().start));
            for (knob, value) in knobs.get_ref() {
                baselines.insert(format!("{family}.{knob}"), line(value));
            }
        }
        KeyLines { top: top.unwrap_or_default(), blocks: spanned.block.iter().map(lines_of).collect(), baselines }
    }

    /// The line of the key a message starts with (`block[2].threads: ...`,
    /// `baselines.hooks.order: ...`, `repeats: ...`): every spec message names its key first.
    pub(super) fn line_of_message(&self, message: &str) -> Option<usize> {
        let path = message.split(": ").next()?;
        if let Some(rest) = path.strip_prefix("block[") {
            let (index, key) = rest.split_once(']')?;
            let block = self.blocks.get(index.parse::<usize>().ok()?)?;
            let key = key.trim_start_matches('.').split(['.', ' ']).next().unwrap_or_default();
            return block.get(key).copied().or_else(|| self.top.get("block").copied());
        }
        if let Some(rest) = path.strip_prefix("baselines.") {
            let family_and_knob: Vec<&str> = rest.splitn(3, '.').take(2).collect();
            return self
                .baselines
                .get(&family_and_knob.join("."))
                .or_else(|| self.baselines.get(family_and_knob[0]))
                .copied();
        }
        self.top.get(path).copied()
    }
}

/// The 1-based line of byte `offset` of `text`.
pub(super) fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&byte| byte == b'\n').count() + 1
}
