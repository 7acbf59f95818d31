//! Every solution of a run, seen as it is found: counted into the family's answer tally
//! and, when asked, written to a stream of JSON lines. The engine keeps only a sample of
//! the solutions (the smallest `solutions_to_keep`); this is how the answer and the
//! solutions file cover all of them, in bounded memory.

use crate::parallel::Collector;
use crate::puzzles::answer_tally::AnswerTally;
use crate::puzzles::Puzzle;
use crate::search::Model;
use serde_json::json;
use std::io::{self, BufWriter, Write};
use std::sync::{Mutex, PoisonError};

/// Where every solution of a run goes, one JSON line each
/// (`{"component": NAME, "solution": TEXT}`), in the order the workers found them. Shared
/// by the workers behind a lock, taken once per solution; written through a buffer, so its
/// memory is bounded whatever the count.
pub struct SolutionStream {
    state: Mutex<StreamState>,
}

struct StreamState {
    out: BufWriter<Box<dyn Write + Send>>,
    lines: u64,
    /// The first write error; later solutions are not written.
    error: Option<io::Error>,
}

impl SolutionStream {
    /// A stream writing to `out`.
    pub fn new(out: Box<dyn Write + Send>) -> SolutionStream {
        let state = StreamState { out: BufWriter::with_capacity(64 * 1024, out), lines: 0, error: None };
        SolutionStream { state: Mutex::new(state) }
    }

    /// Writes one solution of component `component` (as text).
    fn write(&self, component: &str, solution: &str) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.error.is_some() {
            return;
        }
        let line = json!({"component": component, "solution": solution});
        let written = serde_json::to_writer(&mut state.out, &line)
            .map_err(io::Error::from)
            .and_then(|()| state.out.write_all(b"\n"));
        match written {
            Ok(()) => state.lines += 1,
            Err(error) => state.error = Some(error),
        }
    }

    /// Flushes the stream: the lines written, or the first error.
    pub fn finish(self) -> io::Result<u64> {
        let mut state = self.state.into_inner().unwrap_or_else(PoisonError::into_inner);
        if let Some(error) = state.error.take() {
            return Err(error);
        }
        state.out.flush()?;
        Ok(state.lines)
    }
}

/// One component's collector: its answer tally, and the stream when there is one.
pub(super) struct SolutionCollector<'r, P: Puzzle> {
    puzzle: &'r P,
    component: usize,
    name: &'r str,
    stream: Option<&'r SolutionStream>,
    /// Every solution's answer key, counted.
    pub(super) tally: AnswerTally<P::AnswerKey, <P::Model as Model>::Solution>,
    /// The solution being counted, written over for each one ([`Model::write_solution`]):
    /// counting a solution allocates nothing unless it becomes the smallest.
    scratch: Option<<P::Model as Model>::Solution>,
}

impl<'r, P: Puzzle> SolutionCollector<'r, P> {
    /// An empty collector for component `component`, named `name`.
    pub(super) fn new(puzzle: &'r P, component: usize, name: &'r str, stream: Option<&'r SolutionStream>) -> Self {
        let tally = AnswerTally::new().listing_at_most(puzzle.answer_keys_read_up_to());
        SolutionCollector { puzzle, component, name, stream, tally, scratch: None }
    }
}

impl<P: Puzzle> Clone for SolutionCollector<'_, P> {
    fn clone(&self) -> Self {
        SolutionCollector { tally: self.tally.clone(), scratch: None, ..*self }
    }
}

impl<P: Puzzle> Collector<P::Model> for SolutionCollector<'_, P> {
    fn found(&mut self, model: &P::Model) {
        let solution = match &mut self.scratch {
            Some(scratch) => {
                model.write_solution(scratch);
                scratch
            }
            none => none.insert(model.solution()),
        };
        if let Some(stream) = self.stream {
            stream.write(self.name, &self.puzzle.solution_text(solution));
        }
        self.tally.add_with(solution, || match self.puzzle.answer_key_here(self.component, model) {
            Some(key) => key,
            None => self.puzzle.answer_key(self.component, solution),
        });
    }

    fn absorb(&mut self, other: Self) {
        self.tally.absorb(other.tally);
    }

    fn absorb_all(&mut self, others: Vec<Self>) {
        self.tally.absorb_all(others.into_iter().map(|other| other.tally));
    }
}
