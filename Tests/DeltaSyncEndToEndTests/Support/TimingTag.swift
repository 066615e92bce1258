import Testing

extension Tag {
    /// Tests whose waits are sized for a machine not also running the other suites (hundreds of
    /// serial round trips within one wait); `scripts/test.sh` runs their suites after the
    /// parallel run, on their own.
    @Tag static var timing: Tag
}
