"""A drafter that proposes the true continuation, so every draft is accepted: what the
engines' speculative loop does at its best (imported as ``oracle`` by the engine tests)."""


class OracleDrafter:
    name = "oracle"

    def __init__(self, truth: list[int], prompt_len: int, width: int = 7) -> None:
        self.truth, self.prompt_len, self.width = truth, prompt_len, width

    def propose(self, ids, budget):
        done = len(ids) - self.prompt_len
        return self.truth[done:done + min(budget, self.width)], None

    def mask_slots(self):
        return 0

    def observe(self, *a):
        pass
