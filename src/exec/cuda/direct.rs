//! Transfers between the caller's pinned host arrays and the device as DMA alone: a box of
//! elements becomes rows (its host-contiguous innermost axis) copied by `cuMemcpy2DAsync`,
//! with no staging block, no host copy and no wait on the host. The out-of-card path moves
//! every byte of a problem larger than the card through these: with staging, each tile's
//! device-to-host copy waited for its stream and then scattered on the host thread, so the
//! streams never overlapped (c2c f32 2^28 on a 1 GiB budget: 375 ms, H200, 2026-11-26).
//!
//! The Program orders steps of different streams only through `Record`/`Wait`, and a program
//! run this way keeps no other order: so it is used for a whole run or not at all (a staged
//! transfer reads or writes host memory when it is issued, which an earlier asynchronous copy
//! of another stream may not have reached yet).

use super::{check, Result};
use crate::problem::IoDim;
use crate::program::for_each_in_box;
use cudarc::driver::sys as cu;

/// One side of a row copy: its address and the strides (real scalars) of the box's axes.
pub(crate) struct Side<'a> {
    pub addr: u64,
    pub strides: &'a [isize],
}

/// A box as rows on the host side: the axes without the trivial ones, innermost last, whose
/// innermost has host stride `step` (one element; if none has, rows of one element are added
/// innermost), every stride non-negative and the next axis's host pitch at least a row.
/// `None` if the box is not so.
pub(crate) fn host_rows(
    dims: &[IoDim],
    host_stride: impl Fn(&IoDim) -> isize,
    step: isize,
) -> Option<Vec<IoDim>> {
    let mut dims: Vec<IoDim> = dims.iter().filter(|d| d.n != 1).copied().collect();
    if dims.iter().any(|d| d.is < 0 || d.os < 0) {
        return None;
    }
    // Rows of one element each (a tile one column wide): the axis becomes the rows' axis.
    if dims.last().is_some_and(|d| host_stride(d) != step) {
        dims.push(IoDim::new(1, step, step));
    }
    match dims.split_last() {
        None => Some(dims),
        Some((inner, outer)) => {
            let row = inner.n * step;
            let pitch_ok = outer.last().is_none_or(|h| host_stride(h) >= row);
            (host_stride(inner) == step && pitch_ok).then_some(dims)
        }
    }
}

/// Does the device side of `rows` (strides `dev`) take rows as they are: innermost one
/// element apart, the row axis's pitch at least a row?
pub(crate) fn device_takes_rows(rows: &[IoDim], dev: &[isize], step: isize) -> bool {
    match rows.len() {
        0 => true,
        n => dev[n - 1] == step && (n < 2 || dev[n - 2] >= rows[n - 1].n * step),
    }
}

/// Copies the box `rows` (from [`host_rows`]) between host and device on `stream`: the
/// innermost axis is a row, the next the rows of one 2-D copy, the others separate copies.
/// `unit`: bytes of a real scalar.
///
/// # Safety
/// Both sides must hold every element the box addresses; the host side must be pinned and
/// stay valid until the stream has run the copies.
pub(crate) unsafe fn copy_rows(
    to_device: bool,
    host: Side,
    dev: Side,
    rows: &[IoDim],
    step: isize,
    unit: usize,
    stream: cu::CUstream,
) -> Result<()> {
    let n = rows.len();
    let width = rows.last().map_or(1, |d| d.n as usize) * step as usize * unit;
    let (height, hp, dp) = if n >= 2 {
        (
            rows[n - 2].n as usize,
            host.strides[n - 2],
            dev.strides[n - 2],
        )
    } else {
        (1, 0, 0)
    };
    let loops: Vec<IoDim> = (0..n.saturating_sub(2))
        .map(|k| IoDim::new(rows[k].n, host.strides[k], dev.strides[k]))
        .collect();
    let bytes = |p: isize| (p.max(1) as usize * unit).max(width);
    let mut r = Ok(());
    for_each_in_box(&loops, 0, 0, &mut |ho, dof| {
        if r.is_err() {
            return;
        }
        let h = host.addr as usize + ho as usize * unit;
        let d = dev.addr + dof as u64 * unit as u64;
        let (host_pitch, dev_pitch) = (bytes(hp), bytes(dp));
        let (host_type, dev_type) = (
            cu::CUmemorytype::CU_MEMORYTYPE_HOST,
            cu::CUmemorytype::CU_MEMORYTYPE_DEVICE,
        );
        let none = std::ptr::null_mut();
        let c = if to_device {
            cu::CUDA_MEMCPY2D {
                srcXInBytes: 0,
                srcY: 0,
                srcMemoryType: host_type,
                srcHost: h as *const _,
                srcDevice: 0,
                srcArray: none,
                srcPitch: host_pitch,
                dstXInBytes: 0,
                dstY: 0,
                dstMemoryType: dev_type,
                dstHost: none as *mut _,
                dstDevice: d,
                dstArray: none,
                dstPitch: dev_pitch,
                WidthInBytes: width,
                Height: height,
            }
        } else {
            cu::CUDA_MEMCPY2D {
                srcXInBytes: 0,
                srcY: 0,
                srcMemoryType: dev_type,
                srcHost: std::ptr::null(),
                srcDevice: d,
                srcArray: none,
                srcPitch: dev_pitch,
                dstXInBytes: 0,
                dstY: 0,
                dstMemoryType: host_type,
                dstHost: h as *mut _,
                dstDevice: 0,
                dstArray: none,
                dstPitch: host_pitch,
                WidthInBytes: width,
                Height: height,
            }
        };
        r = check(cu::cuMemcpy2DAsync_v2(&c, stream), "cuMemcpy2DAsync");
    });
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_with_a_contiguous_host_row_are_rows() {
        // A four-step tile: 8 rows 16 scalars apart on the host, 2 complex elements each.
        let tile = [IoDim::new(8, 16, 4), IoDim::new(2, 2, 2)];
        let rows = host_rows(&tile, |d| d.is, 2).expect("rows");
        assert_eq!(rows.len(), 2);
        assert!(device_takes_rows(&rows, &[4, 2], 2));
        // Transposed on the device: the inner axis is 4 scalars apart there.
        assert!(!device_takes_rows(&rows, &[2, 4], 2));
        // Trivial axes drop out; a single element is one row.
        assert_eq!(host_rows(&[IoDim::new(1, 7, 9)], |d| d.is, 2), Some(vec![]));
        // No axis one element apart on the host (a tile one column wide): rows of one element.
        let column = host_rows(&[IoDim::new(8, 512, 10), IoDim::new(1, 2, 2)], |d| d.is, 2);
        assert_eq!(
            column,
            Some(vec![IoDim::new(8, 512, 10), IoDim::new(1, 2, 2)])
        );
        // Negative strides, rows overlapping: no.
        assert!(host_rows(&[IoDim::new(8, -2, 2)], |d| d.is, 2).is_none());
        assert!(host_rows(&[IoDim::new(4, 2, 8), IoDim::new(3, 2, 2)], |d| d.is, 2).is_none());
    }
}
