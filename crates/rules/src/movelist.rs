//! Where generated moves go: a [`MoveSink`] takes them one by one; a [`MoveList`] is a sink of
//! fixed capacity that lives on the stack, so a search or a perft never allocates per node.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Receives moves from a generator.
pub trait MoveSink<M> {
    fn push(&mut self, mv: M);
    /// How many moves the sink holds (or has counted).
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<M> MoveSink<M> for Vec<M> {
    #[inline(always)]
    fn push(&mut self, mv: M) {
        Vec::push(self, mv)
    }
    #[inline(always)]
    fn len(&self) -> usize {
        Vec::len(self)
    }
}

/// A list of moves that a position fills: `Vec` or [`MoveList`].
pub trait MoveBuffer<M>:
    MoveSink<M> + Default + Deref<Target = [M]> + DerefMut + Send + fmt::Debug
{
    fn clear(&mut self);
}

impl<M: Send + fmt::Debug> MoveBuffer<M> for Vec<M> {
    #[inline(always)]
    fn clear(&mut self) {
        Vec::clear(self)
    }
}

/// A list of at most `N` moves, on the stack. Each game chooses `N` at or above the most legal
/// moves any position of it can have (its `MoveList` type says why); a push beyond `N` is a bug
/// of that bound and panics rather than write out of bounds.
#[derive(Clone)]
pub struct MoveList<M: Copy + Default, const N: usize> {
    len: usize,
    moves: [M; N],
}

impl<M: Copy + Default, const N: usize> MoveList<M, N> {
    pub const CAPACITY: usize = N;

    #[inline(always)]
    pub fn new() -> Self {
        MoveList {
            len: 0,
            moves: [M::default(); N],
        }
    }

    /// Keeps the moves for which `keep` is true, in their order.
    pub fn retain(&mut self, mut keep: impl FnMut(&M) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let m = self.moves[i];
            if keep(&m) {
                self.moves[j] = m;
                j += 1;
            }
        }
        self.len = j;
    }
}

impl<M: Copy + Default, const N: usize> Default for MoveList<M, N> {
    #[inline(always)]
    fn default() -> Self {
        Self::new()
    }
}

impl<M: Copy + Default, const N: usize> MoveSink<M> for MoveList<M, N> {
    #[inline(always)]
    fn push(&mut self, mv: M) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
}

impl<M: Copy + Default, const N: usize> Deref for MoveList<M, N> {
    type Target = [M];
    #[inline(always)]
    fn deref(&self) -> &[M] {
        &self.moves[..self.len]
    }
}

impl<M: Copy + Default, const N: usize> DerefMut for MoveList<M, N> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [M] {
        &mut self.moves[..self.len]
    }
}

impl<M: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for MoveList<M, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<M: Copy + Default + Send + fmt::Debug, const N: usize> MoveBuffer<M> for MoveList<M, N> {
    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }
}

/// Counts moves instead of keeping them.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveCounter(pub usize);

impl<M> MoveSink<M> for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _mv: M) {
        self.0 += 1;
    }
    #[inline(always)]
    fn len(&self) -> usize {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_list_keeps_its_moves_in_order() {
        let mut l: MoveList<u16, 8> = MoveList::new();
        assert!(l.is_empty());
        for m in [5, 1, 4, 2] {
            l.push(m);
        }
        assert_eq!(&l[..], &[5, 1, 4, 2]);
        l.retain(|&m| m % 2 == 0);
        assert_eq!(&l[..], &[4, 2]);
        MoveBuffer::clear(&mut l);
        assert_eq!(l.len(), 0);
    }

    #[test]
    #[should_panic]
    fn a_push_beyond_the_capacity_panics() {
        let mut l: MoveList<u8, 2> = MoveList::new();
        for m in 0..3 {
            l.push(m);
        }
    }
}
