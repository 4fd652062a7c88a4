# A tiny network for tests/cli/profiler.cmake: a convolution, an in-place ReLU, a residual addition (a
# functional op between modules), a module run twice, and a parameter owned by a container.
import torch


class TinyNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 8, 3, padding=1)
        self.act = torch.nn.ReLU(inplace=True)
        self.conv2 = torch.nn.Conv2d(8, 8, 3, padding=1)
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(8, 10)

    def forward(self, x):
        x = self.act(self.conv(x))
        x = x + self.act(self.conv2(x)) * self.scale
        return self.fc(torch.flatten(self.pool(x), 1))
