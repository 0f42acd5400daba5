import Histogram
import NIOCore
import NIOHTTP1

/// The schedule and its bookkeeping. Everything here runs on the one event loop, so it needs no lock.
final class Load: @unchecked Sendable {
    /// What a run measured.
    struct Report: Codable {
        var rate: Double
        /// Answers per second that arrived before the schedule ended.
        var achievedRate: Double
        var p50: Double
        var p99: Double
        var p999: Double
        var max: Double
        /// p99.9 of how late requests went out (ms): the generator's own lateness, plus waiting
        /// for a free connection when the server is slow.
        var sentLateP999: Double
        var answered: Int
        var errors: Int
        var unanswered: Int
    }

    private let loop: any EventLoop
    private let request: HTTPRequestHead
    private let interval: Int64
    private let warmupEnd: Int64
    private let end: Int64
    private var start: Int64 = 0
    /// The index of the next request to fall due.
    private var next: Int64 = 0
    /// Due times of requests waiting for a free connection, oldest first.
    private var waiting: [Int64] = []
    private var waitingHead = 0
    private var idle: [any Channel] = []
    /// The due time of the request each busy connection carries.
    private var inFlight: [ObjectIdentifier: Int64] = [:]
    private var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private var lateness = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    private var errors = 0
    private var recordedDue = 0
    /// Answers recorded before the schedule ended: a server that keeps up answers nearly all in time.
    private var answeredInTime = 0
    /// Requests due after the warm-up.
    private var dueInWindow = 0
    private var finished: EventLoopPromise<Report>?

    init(loop: any EventLoop, request: HTTPRequestHead, rate: Double, warmup: Double, seconds: Double) {
        self.loop = loop
        self.request = request
        self.interval = Int64(1e9 / rate)
        self.warmupEnd = Int64(warmup * 1e9)
        self.end = Int64((warmup + seconds) * 1e9)
    }

    /// Sends the schedule over `channels` and answers when the last request is answered (or 10 s
    /// after the schedule ends, whichever comes first).
    func run(on channels: [any Channel]) async throws -> Report {
        try await loop.flatSubmit { [self] in
            let promise = loop.makePromise(of: Report.self)
            finished = promise
            idle = channels
            start = Int64(NIODeadline.now().uptimeNanoseconds)
            tick()
            loop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(start + end) + 10_000_000_000)) { self.finish() }
            return promise.futureResult
        }.get()
    }

    /// Queues every request due by now, sends what free connections can carry, and sets a timer
    /// for the next one due.
    private func tick() {
        let now = Int64(NIODeadline.now().uptimeNanoseconds) - start
        while next * interval <= now, next * interval < end {
            waiting.append(next * interval)
            if next * interval >= warmupEnd { dueInWindow += 1 }
            next += 1
        }
        sendWaiting()
        if next * interval < end {
            loop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(start + next * interval))) { self.tick() }
        } else if inFlight.isEmpty, waitingHead == waiting.count {
            finish()
        }
    }

    private func sendWaiting() {
        let now = Int64(NIODeadline.now().uptimeNanoseconds) - start
        while waitingHead < waiting.count, let channel = idle.popLast() {
            let due = waiting[waitingHead]
            waitingHead += 1
            if due >= warmupEnd { lateness.record(UInt64(max(1, (now - due) / 1000))) }
            inFlight[ObjectIdentifier(channel)] = due
            channel.write(HTTPClientRequestPart.head(request), promise: nil)
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
        }
        if waitingHead > 4096, waitingHead * 2 > waiting.count {
            waiting.removeFirst(waitingHead)
            waitingHead = 0
        }
    }

    /// A connection's answer ended: record it, and give the connection the next waiting request.
    func answered(on channel: any Channel, status: HTTPResponseStatus) {
        guard let due = inFlight.removeValue(forKey: ObjectIdentifier(channel)) else { return }
        if due >= warmupEnd {
            let now = Int64(NIODeadline.now().uptimeNanoseconds) - start
            histogram.record(UInt64(max(1, (now - due) / 1000)))
            recordedDue += 1
            if now <= end { answeredInTime += 1 }
            if !(200..<300).contains(status.code) { errors += 1 }
        }
        idle.append(channel)
        sendWaiting()
        if next * interval >= end, inFlight.isEmpty, waitingHead == waiting.count { finish() }
    }

    /// A connection broke: its request counts as an error, and the connection is not used again.
    func failed(on channel: any Channel) {
        if inFlight.removeValue(forKey: ObjectIdentifier(channel)) != nil { errors += 1 }
        idle.removeAll { $0 === channel }
    }

    private func finish() {
        guard let promise = finished else { return }
        finished = nil
        let measured = Double(end - warmupEnd) / 1e9
        func milliseconds(_ percentile: Double) -> Double { Double(histogram.valueAtPercentile(percentile)) / 1000 }
        promise.succeed(
            Report(
                rate: 1e9 / Double(interval),
                achievedRate: Double(answeredInTime) / measured,
                p50: milliseconds(50),
                p99: milliseconds(99),
                p999: milliseconds(99.9),
                max: Double(histogram.max) / 1000,
                sentLateP999: Double(lateness.valueAtPercentile(99.9)) / 1000,
                answered: recordedDue,
                errors: errors,
                unanswered: max(0, dueInWindow - recordedDue)
            )
        )
    }
}

/// Reads one connection's answers and tells the load when each has ended.
final class AnswerHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPClientResponsePart

    private let load: Load
    private var status: HTTPResponseStatus = .ok

    init(load: Load) { self.load = load }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): status = head.status
        case .body: break
        case .end: load.answered(on: context.channel, status: status)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        load.failed(on: context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
