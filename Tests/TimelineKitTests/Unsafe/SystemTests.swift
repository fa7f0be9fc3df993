import Foundation
import Testing

@testable import TimelineKit

@Suite("System (operating system calls)")
struct SystemTests {
    static func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "timeline-system-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("what is at a path: a file, a directory, a device, nothing")
    func kinds() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/f", contents: Data("x".utf8))
        #expect(System.kind(of: directory) == .directory)
        #expect(System.kind(of: directory + "/f") == .regular)
        #expect(System.kind(of: "/dev/null") == .special)
        #expect(System.kind(of: directory + "/missing") == nil)
    }

    @Test("a temporary file is written, closed, moved into place and read back in chunks")
    func roundTrip() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let created = try System.createTemporaryFile(in: directory, prefix: ".out.tmp-").get()
        #expect(
            created.path.hasPrefix(directory + "/.out.tmp-")
                && created.path.count == directory.count + 20)
        try System.writeAll(bytes, to: created.descriptor).get()
        try System.closeReporting(created.descriptor).get()
        let permissions =
            try FileManager.default.attributesOfItem(atPath: created.path)[.posixPermissions]
            as? Int
        #expect(permissions == 0o600)  // only its owner's until it is given its mode
        try System.moveReplacing(created.path, to: directory + "/out").get()
        #expect(System.kind(of: created.path) == nil)

        let fd = try System.openForReading(directory + "/out").get()
        defer { System.closeQuietly(fd) }
        var read: [UInt8] = [0xAA]  // bytes already in the buffer stay in front
        var chunks = 0
        while try System.readChunk(from: fd, appendingTo: &read, upTo: 65_536).get() > 0 {
            chunks += 1
        }
        #expect(read == [0xAA] + bytes)
        #expect(chunks == 4)
    }

    @Test("an anonymous file has no name in its directory, and is read back through its descriptor")
    func anonymousFile() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fd = try System.createAnonymousFile(in: directory).get()
        defer { System.closeQuietly(fd) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        var info = stat()
        #expect(fstat(fd, &info) == 0)
        #expect(info.st_mode & 0o077 == 0)  // no one else may open it
        try System.writeAll(Array("run".utf8), to: fd).get()
        try System.rewind(fd).get()
        var read: [UInt8] = []
        _ = try System.readChunk(from: fd, appendingTo: &read, upTo: 16).get()
        #expect(read == Array("run".utf8))
        #expect(throws: System.Failure.self) {
            try System.createAnonymousFile(in: directory + "/missing").get()
        }
    }

    @Test(
        "a move onto a file replaces it; onto a link replaces the link, not its target; onto a directory fails and moves nothing"
    )
    func moveReplacingExisting() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        func file(_ name: String, _ text: String) -> String {
            let path = directory + "/" + name
            FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
            return path
        }
        func text(_ path: String) -> String? {
            FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
        }

        let old = file("out", "old")
        try System.moveReplacing(file("new", "new"), to: old).get()
        #expect(text(old) == "new")
        #expect(System.kind(of: directory + "/new") == nil)

        let target = file("target", "kept")
        try FileManager.default.createSymbolicLink(
            atPath: directory + "/link", withDestinationPath: target)
        try System.moveReplacing(file("new", "through"), to: directory + "/link").get()
        #expect(text(target) == "kept")
        #expect(text(directory + "/link") == "through")
        #expect(
            (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link")) == nil
        )
        #expect(System.kind(of: directory + "/new") == nil)  // the link swapped out is removed

        try FileManager.default.createDirectory(
            atPath: directory + "/d", withIntermediateDirectories: false)
        let source = file("new", "stays")
        #expect(throws: System.Failure.self) {
            try System.moveReplacing(source, to: directory + "/d").get()
        }
        #expect(text(source) == "stays")
        #expect(System.kind(of: directory + "/d") == .directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/d").isEmpty)
    }

    @Test(
        "the start of a temporary file read through is given back: its storage shrinks, its size and the rest stay"
    )
    func discardStart() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = (0..<(8 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let (fd, path) = try System.createTemporaryFile(in: directory, prefix: "run-").get()
        defer { System.closeQuietly(fd) }
        try System.writeAll(bytes, to: fd).get()
        func blocks() throws -> Int {
            var info = stat()
            #expect(stat(path, &info) == 0)
            return Int(info.st_blocks)
        }
        let before = try blocks()
        #if os(Linux)
            #expect(System.discardStart(of: fd, length: 4 << 20), "ext4 and tmpfs punch holes")
            // 512-byte blocks: 4 MiB is 8,192 of them.
            let after = try blocks()
            #expect(after <= before - 8_000, "\(before) blocks, then \(after)")
        #endif
        #expect(
            try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int == bytes.count)
        try System.rewind(fd).get()
        var read: [UInt8] = []
        while try System.readChunk(from: fd, appendingTo: &read, upTo: 1 << 20).get() > 0 {}
        #expect(
            read.count == bytes.count && Array(read[(4 << 20)...]) == Array(bytes[(4 << 20)...]))
    }

    @Test("failures carry the system's reason")
    func failures() {
        guard case .failure(let failure) = System.openForReading("/nonexistent/timeline") else {
            Issue.record("opened a path that does not exist")
            return
        }
        #expect(failure.reason == "No such file or directory")
        guard
            case .failure(let denied) = System.createTemporaryFile(in: "/nonexistent", prefix: "x")
        else {
            Issue.record("created a file in a directory that does not exist")
            return
        }
        #expect(denied.reason == "No such file or directory")
        var buffer: [UInt8] = [1, 2]
        #expect(throws: System.Failure.self) {
            try System.readChunk(from: -1, appendingTo: &buffer, upTo: 10).get()
        }
        #expect(buffer == [1, 2])
    }
}
