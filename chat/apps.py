from django.apps import AppConfig


class ChatConfig(AppConfig):
    name = "chat"
    verbose_name = "Table chat"

    def ready(self) -> None:
        # The table socket (games) carries chat messages without importing chat: chat tells
        # the fan-out how to read one and make each socket's frame of it.
        from games import fanout

        from . import services

        fanout.register_message(
            "chat", read=services.chat_read, frame=services.chat_frame_for_session
        )
