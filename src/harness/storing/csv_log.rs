//! CSV files that are never left half-written.
//!
//! Run logs grow by whole lines: each row is serialized in memory and handed to the OS in
//! one `write` on a file opened for appending, so a Ctrl-C or a `kill -9` leaves every line
//! complete. Derived files (summaries, reports, plots) are written to a temporary file in the
//! same folder and renamed over the old one, so a reader sees the old or the new file, never
//! a mix. Readers drop a trailing line without its newline (which only a crash of the
//! machine itself could leave) and say so.

use crate::files::atomic_write;
use crate::files::bounded_read::{read_bounded, ReadKind};
use crate::harness::error::HarnessError;
use crate::stderr_line::note;
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Whether `line` (without its newline) is `header`, past a byte order mark and before a
/// carriage return.
fn is_header(line: &[u8], header: &str) -> bool {
    let line = line.strip_prefix(UTF8_BOM).unwrap_or(line);
    String::from_utf8_lossy(line).trim_end_matches('\r') == header
}

/// Refuses to replace `path` when it holds anything past a first line that is not `header`:
/// the rows of a file the harness did not write under this name, or of an older layout of
/// it, which a fresh log would silently destroy. An empty file, a header alone, or a file
/// with this header (whose rows the history took first, when they were runs) is replaced.
fn refuse_foreign_rows(path: &Path, header: &str) -> Result<(), HarnessError> {
    let first = FirstLine::of(path).map_err(|source| HarnessError::io(path, source))?;
    if !first.more || is_header(&first.line, header) {
        return Ok(());
    }
    Err(HarnessError::Csv {
        path: path.to_path_buf(),
        message: "holds rows under another header than the one this build writes (a file the harness did not \
                  write, or an older layout): nothing was changed; move it away and run again"
            .to_string(),
    })
}

/// The first line of a file, read alone (at most 1 MiB of it), and whether more follows.
pub struct FirstLine {
    /// The line, without its newline.
    pub line: Vec<u8>,
    /// Whether the line ended with a newline within the bound.
    pub ended: bool,
    /// Whether the file holds anything past the line and its newline (a line longer than
    /// the bound counts: it is not a header of the harness's).
    pub more: bool,
}

impl FirstLine {
    /// Reads the first line of `path`.
    pub fn of(path: &Path) -> std::io::Result<FirstLine> {
        use std::io::{BufRead, Read};
        let file = File::open(path)?;
        let length = file.metadata()?.len();
        let mut line = Vec::new();
        std::io::BufReader::new(file.take(1 << 20)).read_until(b'\n', &mut line)?;
        let more = length > line.len() as u64;
        let ended = line.pop_if(|last| *last == b'\n').is_some();
        Ok(FirstLine { line, ended, more })
    }
}

/// An append-only CSV log of rows of one type.
#[derive(Debug)]
pub struct CsvAppender {
    file: File,
    path: PathBuf,
}

impl CsvAppender {
    /// Opens `path` for appending rows under `header`. A new or empty file gets the header.
    /// With `keep`, an existing file must have exactly this header and is continued (a
    /// trailing partial line is cut off); without it, the file is replaced by one holding
    /// only the header, unless it holds rows under another header (a file the harness did
    /// not write, or rows of an older build's layout): refused, not lost.
    pub fn open(path: &Path, header: &str, keep: bool) -> Result<CsvAppender, HarnessError> {
        let io_error = |source| HarnessError::io(path, source);
        if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| HarnessError::io(parent, source))?;
        }
        if !keep && path.exists() {
            refuse_foreign_rows(path, header)?;
        }
        let existing = if keep && path.exists() { read_bounded(path, ReadKind::Csv)? } else { Vec::new() };
        if existing.is_empty() {
            write_atomically(path, format!("{header}\n").as_bytes())?;
        } else {
            let first_line = existing.split(|&byte| byte == b'\n').next().unwrap_or_default();
            if !is_header(first_line, header) {
                return Err(HarnessError::Csv {
                    path: path.to_path_buf(),
                    message: "its header differs from the columns this build writes (an older format?); \
                              move the file away or run without --resume to start it anew"
                        .to_string(),
                });
            }
            if existing.last() != Some(&b'\n') {
                let complete = existing.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1);
                note!("{}: {}: dropping an incomplete last line", crate::run::program_name(), path.display());
                OpenOptions::new()
                    .write(true)
                    .open(path)
                    .and_then(|file| file.set_len(complete as u64))
                    .map_err(io_error)?;
            }
        }
        let file = OpenOptions::new().append(true).open(path).map_err(io_error)?;
        Ok(CsvAppender { file, path: path.to_path_buf() })
    }

    /// Appends one row as one whole line and hands it to the OS before returning.
    pub fn append<T: Serialize>(&mut self, row: &T) -> Result<(), HarnessError> {
        self.append_all(std::slice::from_ref(row))
    }

    /// Appends `rows` as whole lines in one write, handed to the OS before returning. When
    /// the write fails part-way (a full disk), the file is cut back to its length before, so
    /// that the rows land all together or not at all.
    pub fn append_all<T: Serialize>(&mut self, rows: &[T]) -> Result<(), HarnessError> {
        let mut lines = Vec::new();
        for row in rows {
            lines
                .extend(serialize_line(row).map_err(|message| HarnessError::Csv { path: self.path.clone(), message })?);
        }
        self.write_lines(&lines)
    }

    /// Writes `bytes` (whole lines) at the end, undoing a partial write.
    fn write_lines(&mut self, bytes: &[u8]) -> Result<(), HarnessError> {
        if bytes.is_empty() {
            return Ok(());
        }
        let before = self.len()?;
        let written = self.file.write_all(bytes).and_then(|()| self.file.flush());
        if let Err(source) = written {
            // Best effort: shrinking needs no space, but if it fails too, the next `--resume`
            // cuts the partial line on open.
            let _ = self.file.set_len(before);
            return Err(HarnessError::io(&self.path, source));
        }
        Ok(())
    }

    /// The file's length in bytes now.
    pub fn len(&self) -> Result<u64, HarnessError> {
        self.file.metadata().map(|metadata| metadata.len()).map_err(|source| HarnessError::io(&self.path, source))
    }

    /// Whether the file holds nothing at all (not even a header).
    pub fn is_empty(&self) -> Result<bool, HarnessError> {
        self.len().map(|len| len == 0)
    }

    /// Cuts the file back to `len` bytes: undoes appends made after [`CsvAppender::len`]
    /// returned `len`.
    pub fn truncate(&mut self, len: u64) -> Result<(), HarnessError> {
        self.file.set_len(len).map_err(|source| HarnessError::io(&self.path, source))
    }

    /// For the fault tests only: writes the first half of `row`'s line and fails as a full
    /// disk does (`ENOSPC`), leaving the half line in place as a real full disk may.
    pub(crate) fn append_half_then_fail_as_full_disk<T: Serialize>(&mut self, row: &T) -> Result<(), HarnessError> {
        let line = serialize_line(row).map_err(|message| HarnessError::Csv { path: self.path.clone(), message })?;
        self.file.write_all(&line[..line.len() / 2]).map_err(|source| HarnessError::io(&self.path, source))?;
        Err(HarnessError::io(&self.path, std::io::Error::from_raw_os_error(libc::ENOSPC)))
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn serialize_line<T: Serialize>(row: &T) -> Result<Vec<u8>, String> {
    let mut writer = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    writer.serialize(row).map_err(|error| error.to_string())?;
    writer.into_inner().map_err(|error| error.to_string())
}

/// The CSV header line of a row type (no newline), from its field names.
pub fn header_of<T: Serialize>(row: &T) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    writer.serialize(row).expect("a plain row type serializes");
    let bytes = writer.into_inner().expect("writing to memory cannot fail");
    String::from_utf8_lossy(&bytes).lines().next().unwrap_or_default().to_string()
}

/// `files::atomic_write::write_atomically`, its error as the harness's.
pub fn write_atomically(path: &Path, contents: &[u8]) -> Result<(), HarnessError> {
    atomic_write::write_atomically(path, contents).map_err(HarnessError::from)
}

/// Writes `rows` under their header to `path`, atomically.
pub fn write_rows<T: Serialize>(path: &Path, rows: &[T], header: &str) -> Result<(), HarnessError> {
    write_atomically(path, &rows_bytes(path, rows, header)?)
}

/// The text of `rows` under their header, as the CSV file at `path` holds them.
pub fn rows_bytes<T: Serialize>(path: &Path, rows: &[T], header: &str) -> Result<Vec<u8>, HarnessError> {
    let mut contents = format!("{header}\n").into_bytes();
    for row in rows {
        contents
            .extend(serialize_line(row).map_err(|message| HarnessError::Csv { path: path.to_path_buf(), message })?);
    }
    Ok(contents)
}

/// The byte-order mark some programs put at the start of a UTF-8 file.
pub(crate) const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Rows read from a CSV file, with notes about lines that were skipped.
#[derive(Debug)]
pub struct ReadRows<T> {
    /// The rows that parsed.
    pub rows: Vec<T>,
    /// One message per skipped line (file and line number), the first hundred; one more
    /// counts the rest.
    pub skipped: Vec<String>,
}

/// The most notes on skipped rows kept per file; further ones are counted in one note.
const MAX_SKIP_NOTES: usize = 100;

/// Reads every row of `path` under `expected_header`, every column of which the file must
/// have; a different header is an error, a line that does not parse is skipped with a note.
pub fn read_rows<T: DeserializeOwned>(path: &Path, expected_header: &str) -> Result<ReadRows<T>, HarnessError> {
    let every_column: Vec<&str> = expected_header.split(',').collect();
    read_checked_rows(path, expected_header, &every_column, |_: &T| Ok(()))
}

/// [`read_rows`] of a file that an older build may have written without some columns
/// (read as empty, with a note), though never without one of `required`; every row that
/// parses but that `check` finds impossible (a value no run writes, from an edited file) is
/// skipped with a note of its line and `check`'s reason.
pub fn read_checked_rows<T: DeserializeOwned>(
    path: &Path,
    expected_header: &str,
    required: &[&str],
    check: impl Fn(&T) -> Result<(), String>,
) -> Result<ReadRows<T>, HarnessError> {
    let mut bytes = read_bounded(path, ReadKind::Csv)?;
    // Spreadsheet programs save CSV with a UTF-8 byte-order mark: not part of the header.
    if bytes.starts_with(UTF8_BOM) {
        bytes.drain(..UTF8_BOM.len());
    }
    // Lines ended by CR alone (as classic Mac OS saved text) would read as one cut-off
    // line, every row dropped with one note that says nothing of why.
    if !bytes.contains(&b'\n') && bytes.contains(&b'\r') {
        return Err(HarnessError::Csv {
            path: path.to_path_buf(),
            message: "its lines end with a carriage return alone (CR); the harness writes and reads lines \
                      ended by LF (or CR LF): convert the file's line ends"
                .to_string(),
        });
    }
    let mut skipped = Vec::new();
    if !bytes.is_empty() && !bytes.ends_with(b"\n") {
        let complete = bytes.iter().rposition(|&byte| byte == b'\n').map_or(0, |end| end + 1);
        skipped.push(cut_last_line_note(path));
        bytes.truncate(complete);
    }
    let first_line = bytes.split(|&byte| byte == b'\n').next().unwrap_or_default();
    let header = std::str::from_utf8(first_line).map_err(|_| HarnessError::Csv {
        path: path.to_path_buf(),
        message: "line 1 (the header) is not valid UTF-8; this is not a file the harness wrote".to_string(),
    })?;
    let header = header.trim_end_matches('\r');
    if header.is_empty() {
        // Said, not refused: a sweep killed as it created the file leaves it so.
        skipped.push(format!("{}: empty (no header line); no rows read", path.display()));
        return Ok(ReadRows { rows: Vec::new(), skipped });
    }
    check_columns(header, expected_header, required)
        .map_err(|message| HarnessError::Csv { path: path.to_path_buf(), message })?;
    // A file of an older build lacks some columns: the missing ones take their defaults.
    let missing = expected_header.split(',').filter(|column| !header.split(',').any(|found| found == *column));
    if missing.count() > 0 {
        skipped.push(format!(
            "{}: written by an older build (fewer columns); the missing ones read as empty",
            path.display()
        ));
    }
    let mut reader = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(bytes.as_slice());
    let headers = reader
        .headers()
        .map_err(|error| HarnessError::Csv { path: path.to_path_buf(), message: error.to_string() })?
        .clone();
    let mut rows = Vec::new();
    let mut unnamed_skips = 0u64;
    let mut lines = LineCounter { text: &bytes, counted_to: 0, line: 1 };
    // Rows are read as bytes so that one invalid UTF-8 byte skips its row, not the file.
    for record in reader.byte_records() {
        let line = record.as_ref().ok().and_then(|record| record.position()).map_or(0, |at| lines.line_at(at.byte()));
        let parsed = record.map_err(|error| error.to_string()).and_then(|record| {
            // A quote left open (a row cut inside a quoted field) runs on into the next
            // lines: a note of its first line alone would hide the rows it took with it.
            let more_lines: u64 =
                record.iter().map(|field| field.iter().filter(|&&byte| byte == b'\n').count() as u64).sum();
            let at = match more_lines {
                0 => format!("line {line}"),
                more => format!("lines {line} to {} (a quoted field runs across them)", line + more),
            };
            let record = csv::StringRecord::from_byte_record(record).map_err(|_| format!("{at}: not valid UTF-8"))?;
            Ok((record, at))
        });
        let parsed = parsed.and_then(|(record, at)| {
            if record.len() != headers.len() {
                return Err(format!("{at}: {} fields instead of {}", record.len(), headers.len()));
            }
            let row = record
                .deserialize::<T>(Some(&headers))
                .map_err(|error| format!("{at}: {}", field_error(&error, &headers)))?;
            check(&row).map(|()| row).map_err(|reason| format!("{at}: {reason}"))
        });
        match parsed {
            Ok(row) => rows.push(row),
            // A file of garbage would keep a note per line: the first ones say what is wrong.
            Err(_) if skipped.len() >= MAX_SKIP_NOTES => unnamed_skips += 1,
            Err(message) => skipped.push(format!("{}: skipped a row: {message}", path.display())),
        }
    }
    if unnamed_skips > 0 {
        skipped.push(format!("{}: skipped {unnamed_skips} more rows", path.display()));
    }
    Ok(ReadRows { rows, skipped })
}

/// The note of a reader that ignores the cut-off last line of `path`: a resumed sweep
/// drops it from its own log when it opens the log, and says so then, so that it leaves
/// this note out for that file (one line said twice).
pub fn cut_last_line_note(path: &Path) -> String {
    format!("{}: the last line has no newline (cut off); ignored", path.display())
}

/// Why a file whose header is `header` cannot be read as `expected_header`'s rows: a column
/// this build does not know, one named twice, or a `required` one missing. Columns in
/// another order are read by name.
pub(crate) fn check_columns(header: &str, expected_header: &str, required: &[&str]) -> Result<(), String> {
    let columns: Vec<&str> = header.split(',').collect();
    let known: Vec<&str> = expected_header.split(',').collect();
    if columns.iter().any(|column| !known.contains(column)) {
        return Err(format!(
            "unexpected header; this build reads the columns\n  {expected_header}\nbut the file has\n  {header}"
        ));
    }
    if let Some((index, twice)) = columns.iter().enumerate().find(|(index, column)| columns[..*index].contains(column))
    {
        return Err(format!("the header names the column `{twice}` twice (the second time as column {})", index + 1));
    }
    let missing: Vec<&str> = required.iter().copied().filter(|column| !columns.contains(column)).collect();
    if !missing.is_empty() {
        return Err(format!(
            "the header lacks the column(s) {}, which every build of the harness writes: not a file it wrote, or \
             an edit removed them",
            missing.join(", ")
        ));
    }
    Ok(())
}

/// The line of a record of a text read from its start onwards, counted as it goes: the CSV
/// crate's own line numbers are one short in a file whose lines end in `\r\n` (as
/// spreadsheet programs save them).
struct LineCounter<'text> {
    text: &'text [u8],
    counted_to: usize,
    line: u64,
}

impl LineCounter<'_> {
    /// The line (from 1) of the record that starts at `offset` (at or after the last one
    /// asked about), past any line ends before it.
    fn line_at(&mut self, offset: u64) -> u64 {
        let mut offset = usize::try_from(offset).unwrap_or(usize::MAX).min(self.text.len());
        // After a `\r`, the CSV crate starts the next record at the `\n` that ends the line.
        while self.text.get(offset).is_some_and(|&byte| byte == b'\n' || byte == b'\r') {
            offset += 1;
        }
        if offset > self.counted_to {
            let newlines = self.text[self.counted_to..offset].iter().filter(|&&byte| byte == b'\n').count();
            self.line += newlines as u64;
            self.counted_to = offset;
        }
        self.line
    }
}

/// What was wrong with a row's value, naming its column and its place counted from 1 (the
/// CSV crate's own message counts fields from 0 and names no column).
fn field_error(error: &csv::Error, headers: &csv::StringRecord) -> String {
    let csv::ErrorKind::Deserialize { err, .. } = error.kind() else {
        return error.to_string();
    };
    match err.field().and_then(|field| usize::try_from(field).ok()) {
        Some(field) => {
            let name = headers.get(field).unwrap_or("?");
            format!("column {name} (field {}): {}", field + 1, err.kind())
        }
        None => err.kind().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Serialize, Deserialize, PartialEq)]
    struct Row {
        name: String,
        count: u64,
    }

    #[test]
    fn appended_rows_read_back_and_a_cut_line_is_dropped() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        let mut log = CsvAppender::open(&path, "name,count", false).unwrap();
        log.append(&Row { name: "a,b".into(), count: 1 }).unwrap();
        log.append(&Row { name: "c".into(), count: 2 }).unwrap();
        drop(log);
        let mut file = OpenOptions::new().append(true).open(&path).unwrap();
        file.write_all(b"d,3").unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        assert_eq!(read.rows, [Row { name: "a,b".into(), count: 1 }, Row { name: "c".into(), count: 2 }]);
        assert_eq!(read.skipped.len(), 1);
        // Continuing the log cuts the partial line first.
        let mut log = CsvAppender::open(&path, "name,count", true).unwrap();
        log.append(&Row { name: "e".into(), count: 4 }).unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        assert_eq!(read.rows.len(), 3);
        assert!(read.skipped.is_empty());
    }

    #[test]
    fn a_file_of_bad_rows_keeps_a_hundred_notes_and_counts_the_rest() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        let mut text = String::from("name,count\nok,1\n");
        for line in 0..150 {
            text.push_str(&format!("bad{line},not-a-number\n"));
        }
        std::fs::write(&path, text).unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        assert_eq!(read.rows, [Row { name: "ok".into(), count: 1 }]);
        assert_eq!(read.skipped.len(), MAX_SKIP_NOTES + 1);
        assert!(read.skipped[0].contains("skipped a row: line 3: column count (field 2): "), "{}", read.skipped[0]);
        assert!(read.skipped[MAX_SKIP_NOTES].ends_with("skipped 50 more rows"), "{}", read.skipped[MAX_SKIP_NOTES]);
    }

    #[test]
    fn a_skipped_row_names_its_line_whatever_the_line_ends() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        for end in ["\n", "\r\n"] {
            let text = ["name,count", "ok,1", "bad,x", "\"two\nlines\",2", "bad,y", ""].join(end);
            std::fs::write(&path, text).unwrap();
            let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
            assert_eq!(read.rows.len(), 2, "{end:?}");
            assert!(read.skipped[0].contains("skipped a row: line 3: column count (field 2)"), "{:?}", read.skipped);
            assert!(read.skipped[1].contains("skipped a row: line 6: column count (field 2)"), "{:?}", read.skipped);
            // A row cut inside a quoted field takes the lines up to the next quote with it.
            std::fs::write(&path, ["name,count", "ok,1", "\"cut", "next,4,extra", "x\",5,6", "last,7", ""].join(end))
                .unwrap();
            let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
            assert_eq!(read.rows.len(), 2, "{end:?}");
            assert!(read.skipped[0].contains("lines 3 to 5 (a quoted field runs across them)"), "{:?}", read.skipped);
        }
    }

    #[test]
    fn an_empty_file_reads_as_no_rows_with_a_note() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "").unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        assert!(read.rows.is_empty());
        assert!(read.skipped[0].ends_with("runs.csv: empty (no header line); no rows read"), "{:?}", read.skipped);
    }

    #[test]
    fn lines_ended_by_a_carriage_return_alone_are_refused_saying_so() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "name,count\rok,1\rbad,x\r").unwrap();
        let error = read_rows::<Row>(&path, "name,count").unwrap_err();
        assert!(error.is_bad_input() && error.to_string().contains("carriage return alone"), "{error}");
    }

    #[test]
    fn a_different_header_is_refused() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "old,columns\n1,2\n").unwrap();
        assert!(CsvAppender::open(&path, "name,count", true).unwrap_err().to_string().contains("header differs"));
        assert!(read_rows::<Row>(&path, "name,count").is_err());
        // Without keep, rows under another header are refused, not replaced.
        let error = CsvAppender::open(&path, "name,count", false).unwrap_err();
        assert!(error.is_bad_input() && error.to_string().contains("nothing was changed"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old,columns\n1,2\n");
        // Another header alone, or this header with rows, starts anew.
        for kept in ["old,columns\n", "name,count\na,1\n"] {
            std::fs::write(&path, kept).unwrap();
            CsvAppender::open(&path, "name,count", false).unwrap();
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "name,count\n");
        }
    }

    #[derive(Debug, Serialize, Deserialize, PartialEq, Default)]
    #[serde(default)]
    struct NewerRow {
        name: String,
        added: String,
        count: u64,
    }

    #[test]
    fn a_file_of_an_older_build_reads_with_defaults_and_a_note() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "name,count\na,1\n").unwrap();
        let read: ReadRows<NewerRow> =
            read_checked_rows(&path, "name,added,count", &["name", "count"], |_| Ok(())).unwrap();
        assert_eq!(read.rows, [NewerRow { name: "a".into(), added: String::new(), count: 1 }]);
        assert!(read.skipped[0].contains("older build"), "{:?}", read.skipped);
        // Appending to it would mix two layouts: refused.
        assert!(CsvAppender::open(&path, "name,added,count", true).is_err());
    }

    #[test]
    fn columns_named_twice_or_required_and_missing_are_refused_and_another_order_reads() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "count,name\n1,a\n").unwrap();
        let read: ReadRows<NewerRow> = read_checked_rows(&path, "name,added,count", &["name"], |_| Ok(())).unwrap();
        assert_eq!(read.rows, [NewerRow { name: "a".into(), added: String::new(), count: 1 }]);
        std::fs::write(&path, "name,added,count\na,b,1\n").unwrap();
        assert!(read_rows::<NewerRow>(&path, "added,count,name").unwrap().skipped.is_empty(), "another order");
        std::fs::write(&path, "name,count,count\na,1,1\n").unwrap();
        let error = read_rows::<NewerRow>(&path, "name,added,count").unwrap_err().to_string();
        assert!(error.contains("names the column `count` twice (the second time as column 3)"), "{error}");
        std::fs::write(&path, "added,count\nb,1\n").unwrap();
        let error = read_checked_rows::<NewerRow>(&path, "name,added,count", &["name"], |_| Ok(())).unwrap_err();
        assert!(error.is_bad_input() && error.to_string().contains("lacks the column(s) name,"), "{error}");
    }

    #[test]
    fn a_row_with_bad_fields_is_skipped_with_a_note() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, "name,count\na,1\nb,x\nc\n").unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        assert_eq!(read.rows.len(), 1);
        assert_eq!(read.skipped.len(), 2);
        // Each note names the line.
        assert!(read.skipped[0].contains("line 3: "), "{:?}", read.skipped);
        assert!(read.skipped[1].contains("line 4: 1 fields instead of 2"), "{:?}", read.skipped);
    }

    #[test]
    fn a_byte_order_mark_is_accepted_and_an_invalid_utf8_row_is_skipped_with_a_note() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("runs.csv");
        std::fs::write(&path, b"\xEF\xBB\xBFname,count\na,1\nb\xFF,2\nc,3\n").unwrap();
        let read: ReadRows<Row> = read_rows(&path, "name,count").unwrap();
        let names: Vec<&str> = read.rows.iter().map(|row| row.name.as_str()).collect();
        assert_eq!(names, ["a", "c"]);
        assert_eq!(read.skipped.len(), 1);
        assert!(read.skipped[0].contains("line 3: not valid UTF-8"), "{:?}", read.skipped);
        // --resume continues such a file.
        CsvAppender::open(&path, "name,count", true).unwrap().append(&Row { name: "d".into(), count: 4 }).unwrap();
    }

    #[test]
    fn atomic_writes_leave_no_temporary_file() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("summary.csv");
        write_rows(&path, &[Row { name: "a".into(), count: 1 }], "name,count").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "name,count\na,1\n");
        assert_eq!(std::fs::read_dir(folder.path()).unwrap().count(), 1);
    }
}
