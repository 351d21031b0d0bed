//! Progress on stderr for the tool's own loops: one line redrawn in place on a terminal (a bar,
//! the step and what it is doing), one line per step otherwise (logs, CI).

use std::io::{IsTerminal, Write};
use std::time::Instant;

pub struct Progress {
    total: usize,
    done: usize,
    tty: bool,
    quiet: bool,
    drawn: bool,
    /// The last step a line was printed for (not on a terminal: one line per step).
    printed: Option<usize>,
    start: Instant,
}

impl Progress {
    pub fn new(total: usize, quiet: bool) -> Progress {
        Progress {
            total,
            done: 0,
            tty: std::io::stderr().is_terminal(),
            quiet,
            drawn: false,
            printed: None,
            start: Instant::now(),
        }
    }

    /// Says what step `self.done + 1` of `total` is doing now.
    pub fn show(&mut self, what: &str) {
        if self.quiet {
            return;
        }
        let n = self.done + 1;
        let elapsed = self.start.elapsed().as_secs_f64();
        if self.tty {
            const W: usize = 24;
            let filled = (self.done * W).checked_div(self.total).unwrap_or(0);
            let bar: String = (0..W).map(|i| if i < filled { '#' } else { '.' }).collect();
            eprint!("\r\x1b[K[{bar}] {n}/{} {elapsed:5.1}s {what}", self.total);
            let _ = std::io::stderr().flush();
            self.drawn = true;
        } else if self.printed != Some(n) {
            eprintln!("[{n}/{}] {elapsed:.1}s {what}", self.total);
            self.printed = Some(n);
        }
    }

    /// One step is done.
    pub fn advance(&mut self) {
        self.done += 1;
    }

    /// Prints a line that stays (a warning, a result) without breaking the bar.
    pub fn note(&mut self, line: &str) {
        self.clear();
        eprintln!("{line}");
    }

    /// Removes the bar (before the results are printed).
    pub fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[K");
            let _ = std::io::stderr().flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}
