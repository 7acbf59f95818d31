//! The causes of lost time and the measured terms they are made of, with the names every
//! output (text, Markdown, JSON, plot) gives them. The one place those names are written:
//! the arithmetic and the advice match on the enums, never on their text.

use serde::{Serialize, Serializer};
use std::fmt;

/// A cause of lost time, as `explain` ranks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CauseKind {
    /// Nodes visited beyond the sequential search's.
    SearchOverhead,
    /// Nodes in tasks costing more than sequential ones (at one thread, or with more threads).
    PerNodeCost,
    /// Workers idle before their first task (the frontier listing, the pool waking up).
    WaitingForFirstTask,
    /// Workers idle between two tasks (taking the next one, waiting for a steal).
    IdleBetweenTasks,
    /// Workers idle after their last task while others were still busy.
    Tail,
    /// What the medians of the measured terms leave uncovered.
    Unexplained,
}

impl CauseKind {
    /// Every cause, in a fixed order (`Unexplained` last): the order the decomposition
    /// lists them in before sorting, so that equal losses keep it.
    pub const ALL: [CauseKind; 6] = [
        CauseKind::SearchOverhead,
        CauseKind::PerNodeCost,
        CauseKind::WaitingForFirstTask,
        CauseKind::IdleBetweenTasks,
        CauseKind::Tail,
        CauseKind::Unexplained,
    ];

    /// The name shown and serialized (`per-node cost`).
    pub const fn name(self) -> &'static str {
        match self {
            CauseKind::SearchOverhead => "search overhead",
            CauseKind::PerNodeCost => "per-node cost",
            CauseKind::WaitingForFirstTask => "waiting for first task",
            CauseKind::IdleBetweenTasks => "idle between tasks",
            CauseKind::Tail => "tail",
            CauseKind::Unexplained => "unexplained",
        }
    }
}

/// The name of every cause, in the order of `CauseKind::ALL` (`unexplained` last).
pub const CAUSE_NAMES: [&str; 6] = {
    let mut names = [""; 6];
    let mut index = 0;
    while index < names.len() {
        names[index] = CauseKind::ALL[index].name();
        index += 1;
    }
    names
};

/// One measured term of `N * TN - T1`; each belongs to one cause. The per-node cost has
/// several (its parts), every other cause one, named as the cause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TermKind {
    /// Extra (or, as a gain, fewer) nodes at the sequential cost.
    SearchOverhead,
    /// The per-node cost in tasks at one thread over the sequential one (path replay,
    /// per-task setup).
    AtOneThread,
    /// Nodes no dearer (a gain when cheaper) at `N` threads than at one thread.
    CheaperNodesAtThreads,
    /// Busy without a CPU while there were enough CPUs (another process ran).
    Descheduled,
    /// Busy without a CPU with more threads than CPUs.
    Oversubscription,
    /// Counters sharing cache lines, from the counter layout A/B.
    Contention,
    /// Cloning the state, from the clone/undo A/B.
    Allocation,
    /// The rest of the per-node growth with more threads running.
    MoreThreads,
    /// Idle before the first task, less the frontier listing's own work.
    WaitingForFirstTask,
    /// Idle between tasks.
    IdleBetweenTasks,
    /// Idle after a worker's last task.
    Tail,
}

impl TermKind {
    /// The cause this term adds to.
    pub const fn cause(self) -> CauseKind {
        match self {
            TermKind::SearchOverhead => CauseKind::SearchOverhead,
            TermKind::AtOneThread
            | TermKind::CheaperNodesAtThreads
            | TermKind::Descheduled
            | TermKind::Oversubscription
            | TermKind::Contention
            | TermKind::Allocation
            | TermKind::MoreThreads => CauseKind::PerNodeCost,
            TermKind::WaitingForFirstTask => CauseKind::WaitingForFirstTask,
            TermKind::IdleBetweenTasks => CauseKind::IdleBetweenTasks,
            TermKind::Tail => CauseKind::Tail,
        }
    }

    /// The name shown and serialized (`at one thread`; the cause's name when it is the
    /// cause's only term).
    pub const fn name(self) -> &'static str {
        match self {
            TermKind::AtOneThread => "at one thread",
            TermKind::CheaperNodesAtThreads => "cheaper nodes at N threads",
            TermKind::Descheduled => "descheduled",
            TermKind::Oversubscription => "oversubscription",
            TermKind::Contention => "contention",
            TermKind::Allocation => "allocation",
            TermKind::MoreThreads => "more threads",
            TermKind::SearchOverhead | TermKind::WaitingForFirstTask | TermKind::IdleBetweenTasks | TermKind::Tail => {
                self.cause().name()
            }
        }
    }
}

// Shown and serialized by name, so that the text and the JSON read as they did when the
// names were the fields themselves. `pad` keeps width and alignment (`{:<24}`) working.
impl fmt::Display for CauseKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.pad(self.name())
    }
}

impl fmt::Display for TermKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.pad(self.name())
    }
}

impl Serialize for CauseKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Serialize for TermKind {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_distinct_and_unexplained_is_last() {
        let mut names = CAUSE_NAMES.to_vec();
        assert_eq!(names.last(), Some(&"unexplained"));
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CauseKind::ALL.len());
    }

    #[test]
    fn a_cause_with_one_term_shares_its_name() {
        for term in
            [TermKind::SearchOverhead, TermKind::WaitingForFirstTask, TermKind::IdleBetweenTasks, TermKind::Tail]
        {
            assert_eq!(term.name(), term.cause().name());
        }
    }

    #[test]
    fn names_serialize_and_pad_as_text() {
        assert_eq!(serde_json::to_string(&CauseKind::PerNodeCost).expect("serializes"), "\"per-node cost\"");
        assert_eq!(
            serde_json::to_string(&TermKind::CheaperNodesAtThreads).expect("serializes"),
            "\"cheaper nodes at N threads\""
        );
        assert_eq!(format!("[{:<6}]", CauseKind::Tail), "[tail  ]");
    }
}
