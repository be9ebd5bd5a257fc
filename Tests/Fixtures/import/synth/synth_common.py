"""A stand-in for Perfetto's test/synth_common.py with just the FrameTimeline
calls, writing the same packets with latsim's trimmed trace messages
(Protos/perfetto_trimmed.proto, where FrameTimelineEvent is TracePacket's
field 76 as the upstream extension is). Each method sets the same fields
under the same conditions as upstream's, so Perfetto's
frame_timeline_events.py runs unchanged on top of it and gives the same bytes.
"""
import os
import sys

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory


def _trace_class():
    path = os.environ["LATSIM_TRACE_DESCRIPTOR"]
    files = descriptor_pb2.FileDescriptorSet()
    with open(path, "rb") as f:
        files.MergeFromString(f.read())
    pool = descriptor_pool.DescriptorPool()
    for file in files.file:
        pool.Add(file)
    return message_factory.GetMessageClass(pool.FindMessageTypeByName("perfetto.protos.Trace"))


class Trace(object):
    def __init__(self):
        self.trace = _trace_class()()

    def add_packet(self):
        return self.trace.packet.add()

    def add_expected_display_frame_start_event(self, ts, cookie, token, pid):
        packet = self.add_packet()
        packet.timestamp = ts
        event = packet.frame_timeline_event.expected_display_frame_start
        if token != -1:
            event.cookie = cookie
            event.token = token
            event.pid = pid

    def add_actual_display_frame_start_event(self, ts, cookie, token, pid, present_type, on_time_finish,
                                             gpu_composition, jank_type, prediction_type):
        packet = self.add_packet()
        packet.timestamp = ts
        event = packet.frame_timeline_event.actual_display_frame_start
        if token != -1:
            event.cookie = cookie
            event.token = token
            event.pid = pid
            event.present_type = present_type
            event.on_time_finish = on_time_finish
            event.gpu_composition = gpu_composition
            event.jank_type = jank_type
            event.prediction_type = prediction_type

    def add_expected_surface_frame_start_event(self, ts, cookie, token, display_frame_token, pid, layer_name):
        packet = self.add_packet()
        packet.timestamp = ts
        event = packet.frame_timeline_event.expected_surface_frame_start
        if token != -1 and display_frame_token != -1:
            event.cookie = cookie
            event.token = token
            event.display_frame_token = display_frame_token
            event.pid = pid
            event.layer_name = layer_name

    def add_actual_surface_frame_start_event(self, ts, cookie, token, display_frame_token, pid, layer_name,
                                             present_type, on_time_finish, gpu_composition, jank_type,
                                             prediction_type, jank_severity_type=None, jank_score=0):
        packet = self.add_packet()
        packet.timestamp = ts
        event = packet.frame_timeline_event.actual_surface_frame_start
        if token != -1 and display_frame_token != -1:
            event.cookie = cookie
            event.token = token
            event.display_frame_token = display_frame_token
            event.pid = pid
            event.layer_name = layer_name
            event.present_type = present_type
            event.on_time_finish = on_time_finish
            event.gpu_composition = gpu_composition
            event.jank_type = jank_type
            if jank_severity_type is None:
                event.jank_severity_type = 1 if event.jank_type == 1 else 0
            else:
                event.jank_severity_type = jank_severity_type
            event.prediction_type = prediction_type
            event.jank_severity_score = jank_score

    def add_frame_end_event(self, ts, cookie):
        packet = self.add_packet()
        packet.timestamp = ts
        packet.frame_timeline_event.frame_end.cookie = cookie


def create_trace():
    return Trace()
