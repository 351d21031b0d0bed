//! Pure functions over problems (and, with FFTX, plan graphs): each unit-tested on its own.

pub mod distribute;
pub mod fmm;
pub mod normalize;
pub mod out_of_card;
pub mod place;
pub mod resident;
pub mod stream;

/// The device memory a program may use: `bytes` on device `device`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub device: usize,
    pub bytes: usize,
}

/// The order in which device `dest` takes its parts of an exchange among `count` devices: its
/// own part first, then each next device around the ring, so that at every step each card's
/// link serves one reader. With every destination starting at device 0 (the plain loop) all
/// readers queue on card 0's link, then on card 1's: on 4 H100s an all-to-all of 256 MiB-2 GiB
/// a card by peer-read kernels moved 170-171 GB/s out of each card that way and 298-313 GB/s
/// rotated (NCCL: 276-345);
/// a 1024³ c2c f32 by slabs over 4 cards went from 18.2 to 12.3 ms
/// (`bench/alltoall.cu`, bench/results/2026-11-26-exchange.md).
pub fn exchange_order(dest: usize, count: usize) -> impl Iterator<Item = usize> {
    (0..count).map(move |k| (dest + k) % count)
}

#[cfg(test)]
mod tests {
    use super::exchange_order;

    #[test]
    fn each_step_of_an_exchange_reads_every_device_once() {
        for count in 1..=8 {
            for dest in 0..count {
                let order: Vec<usize> = exchange_order(dest, count).collect();
                assert_eq!(order[0], dest, "own part first");
                let mut sorted = order.clone();
                sorted.sort();
                assert_eq!(sorted, (0..count).collect::<Vec<_>>());
            }
            // At step k the destinations read from distinct sources.
            for k in 0..count {
                let mut sources: Vec<usize> = (0..count)
                    .map(|d| exchange_order(d, count).nth(k).unwrap())
                    .collect();
                sources.sort();
                sources.dedup();
                assert_eq!(sources.len(), count);
            }
        }
    }
}
