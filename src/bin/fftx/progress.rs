//! Progress on stderr for the tool's own loops: one line redrawn in place on a terminal (a bar,
//! the step and what it is doing), one line per step otherwise (logs, CI). On a terminal, the
//! library's long planning (each MEASURE/PATIENT candidate timed, each way an FFTX chain runs)
//! shows at the end of the bar's line while it goes on, through the library's progress hook;
//! elsewhere `FFTX_LOG=info` prints those steps as lines.

use std::io::{IsTerminal, Write};
use std::sync::Mutex;
use std::time::Instant;

/// The bar's line as last drawn, for the library's hook to redraw with its step appended (None:
/// no bar on a terminal now).
static BAR: Mutex<Option<String>> = Mutex::new(None);

/// The library's progress hook: the bar, then what the planner just timed, within the width.
fn planning_step(what: &str) {
    let bar = BAR.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(line) = bar.as_ref() {
        let width = std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.parse::<usize>().ok())
            .unwrap_or(80);
        let text: String = format!("{line} | {what}")
            .chars()
            .take(width.saturating_sub(1))
            .collect();
        eprint!("\r\x1b[K{text}");
        let _ = std::io::stderr().flush();
    }
}

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
        let tty = std::io::stderr().is_terminal();
        if tty && !quiet {
            fftx::log::set_progress_hook(Some(planning_step));
        }
        Progress {
            total,
            done: 0,
            tty,
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
            let line = format!("[{bar}] {n}/{} {elapsed:5.1}s {what}", self.total);
            eprint!("\r\x1b[K{line}");
            let _ = std::io::stderr().flush();
            *BAR.lock().unwrap_or_else(|e| e.into_inner()) = Some(line);
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
            *BAR.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if self.tty && !self.quiet {
            fftx::log::set_progress_hook(None);
        }
        self.clear();
    }
}
