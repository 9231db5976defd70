/** Four invisible handles (top, right, bottom, left); the graph connects in loose mode. */
import { Handle, Position } from '@xyflow/react';

export function Handles() {
  return (
    <>
      <Handle id="t" type="source" position={Position.Top} isConnectable={false} className="h" />
      <Handle id="r" type="source" position={Position.Right} isConnectable={false} className="h" />
      <Handle id="b" type="source" position={Position.Bottom} isConnectable={false} className="h" />
      <Handle id="l" type="source" position={Position.Left} isConnectable={false} className="h" />
    </>
  );
}
