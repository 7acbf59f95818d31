//! When a grid model checks that its filled cells can still form one connected group.

use crate::knobs::Knob;

/// The connectivity knob shared by Hooks and Twenty Four Seven. Every setting gives the
/// same solutions: the exact check always runs on complete grids; the settings differ in
/// how early a partial grid that can no longer connect is cut off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnectivityCheck {
    /// Only on complete grids.
    Leaves,
    /// On partial grids at every K-th depth (as the 24/7 post, "every once in a while").
    Periodic(u32),
    /// On partial grids at every node.
    EveryNode,
    /// On partial grids, only after a move that could have cut a group off (a cell left
    /// empty next to a filled one), and only from the cells around that move.
    Incremental,
}

impl Knob for ConnectivityCheck {
    const VALUES: &'static [&'static str] = &["leaves", "periodic:K", "every-node", "incremental"];

    fn parse(head: &str, parameter: Option<u32>) -> Option<ConnectivityCheck> {
        match (head, parameter) {
            ("leaves", None) => Some(ConnectivityCheck::Leaves),
            ("periodic", Some(k)) => Some(ConnectivityCheck::Periodic(k)),
            ("every-node", None) => Some(ConnectivityCheck::EveryNode),
            ("incremental", None) => Some(ConnectivityCheck::Incremental),
            _ => None,
        }
    }

    fn name(self) -> String {
        self.to_string()
    }
}

impl std::fmt::Display for ConnectivityCheck {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConnectivityCheck::Leaves => write!(f, "leaves"),
            ConnectivityCheck::Periodic(k) => write!(f, "periodic:{k}"),
            ConnectivityCheck::EveryNode => write!(f, "every-node"),
            ConnectivityCheck::Incremental => write!(f, "incremental"),
        }
    }
}
