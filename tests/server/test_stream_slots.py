"""Stream slots (tavla.server.admission.streams): with every slot of a kind held by slow or quiet
clients, a newcomer takes the idlest one's slot, and that stream is ended RESOURCE_EXHAUSTED
saying why; streams whose clients send back to back keep theirs. A fake clock orders events."""

from __future__ import annotations

from tavla.server.admission.streams import EVICT_AFTER, EVICTED, StreamSlots


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def _open(slots: StreamSlots, ended: list, name: str):
    stream = slots.open(lambda message: ended.append((name, message)))
    assert stream is not None
    return stream


def test_the_idlest_of_full_slots_is_evicted_for_a_newcomer():
    clock, ended = Clock(), []
    slots = StreamSlots(4, clock)
    quiet = _open(slots, ended, "quiet")  # one chunk, then nothing
    slow = [_open(slots, ended, f"slow{i}") for i in range(3)]  # a byte every 2 s
    slots.waiting(quiet)
    for second in range(8):
        for s in slow:
            slots.waiting(s)
        clock.now += 1.9
        if second < 7:
            for s in slow:
                slots.received(s)
        clock.now += 0.1
    assert slots.open(lambda m: ended.append(("new", m))) is not None
    assert ended == [("quiet", EVICTED)] and slots.count() == 4
    # the next newcomer takes a slow one's slot: each has waited most of its life
    assert slots.open(lambda m: ended.append(("new2", m))) is not None
    assert ended[1][0].startswith("slow") and slots.evicted_total == 2


def test_streams_sending_back_to_back_are_never_evicted():
    clock, ended = Clock(), []
    slots = StreamSlots(2, clock)
    busy = [_open(slots, ended, f"busy{i}") for i in range(2)]
    for _ in range(100):  # the server works 99% of the time, waits 1%
        for s in busy:
            slots.waiting(s)
        clock.now += 0.001
        for s in busy:
            slots.received(s)
        clock.now += 0.1
    for s in busy:
        slots.waiting(s)  # waiting now, but idle far less than half its life
    clock.now += 0.2
    assert slots.evictable() == 0
    assert slots.open(lambda m: ended.append(("new", m))) is None and ended == []


def test_a_stream_is_not_evicted_before_it_has_waited_evict_after():
    clock, ended = Clock(), []
    slots = StreamSlots(1, clock)
    quiet = _open(slots, ended, "quiet")
    slots.waiting(quiet)
    clock.now += EVICT_AFTER / 2
    assert slots.open(lambda m: None) is None
    clock.now += EVICT_AFTER
    assert slots.open(lambda m: None) is not None and ended == [("quiet", EVICTED)]
    slots.close(quiet)  # its handler ends later: the newcomer's slot stays
    assert slots.count() == 1
