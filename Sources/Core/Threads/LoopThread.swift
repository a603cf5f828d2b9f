import CSystem

/// Which event loop the calling thread runs: each loop thread says so as it starts, so
/// that per-loop state can check that it is touched on its own loop (`PerLoop`). Every
/// other thread (`main`, the store's writer, a test's) runs none.
public enum LoopThread {
    /// The index of the loop the calling thread runs, or nil.
    public static var current: Int? {
        let index = csys_loop_index()
        return index < 0 ? nil : Int(index)
    }

    /// Marks the calling thread as loop `index`'s (nil: no loop's) until it ends or binds again.
    public static func bind(_ index: Int?) {
        csys_set_loop_index(index.map { Int32(clamping: $0) } ?? -1)
    }
}
