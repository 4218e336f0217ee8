//! rayon's parallel iterators where the feature `parallel` is on, and otherwise the same names
//! on the standard library's sequential iterators, so that perft and [`Batch`](crate::Batch)
//! are written once and the rules build without rayon.

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

#[cfg(not(feature = "parallel"))]
pub(crate) use sequential::*;

#[cfg(not(feature = "parallel"))]
mod sequential {
    /// A slice's parallel iterators, here sequential.
    pub(crate) trait ParallelSlice<T> {
        fn par_iter(&self) -> std::slice::Iter<'_, T>;
        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T>;
        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T>;
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> std::slice::Iter<'_, T> {
            self.iter()
        }

        fn par_iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
            self.iter_mut()
        }

        fn par_chunks_mut(&mut self, size: usize) -> std::slice::ChunksMut<'_, T> {
            self.chunks_mut(size)
        }
    }

    /// rayon's split limit, which a sequential iterator has no use for.
    pub(crate) trait WithMaxLen: Iterator + Sized {
        fn with_max_len(self, _: usize) -> Self {
            self
        }
    }

    impl<I: Iterator> WithMaxLen for I {}
}
