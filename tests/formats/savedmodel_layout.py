#!/usr/bin/env python3
"""The SavedModel hlorun writes, checked field by field against one TensorFlow wrote.

Usage: savedmodel_layout.py OURS/saved_model.pb REAL/saved_model.pb

Both files are decoded with the field numbers of TensorFlow's protos (the SCHEMA below, from
tensorflow/core/{framework,protobuf}/*.proto), with no TensorFlow. Each file becomes the set of
its field paths, where a node is named by its op (graph_def.node[XlaCallModule]) and an attribute
by its key (.attr[Sout]), so that every op's attributes are compared. A path only one side has is
an error unless it is listed below with the reason it may differ. Prints the comparison; exits 1
on an unexplained difference.
"""
import sys

# message -> {field number: (name, message type or scalar kind)}
SCHEMA = {
    'SavedModel': {1: ('saved_model_schema_version', 'int'), 2: ('meta_graphs', 'MetaGraphDef')},
    'MetaGraphDef': {1: ('meta_info_def', 'MetaInfoDef'), 2: ('graph_def', 'GraphDef'), 3: ('saver_def', 'SaverDef'),
                     4: ('collection_def', 'CollectionEntry'), 5: ('signature_def', 'SignatureEntry'),
                     6: ('asset_file_def', 'bytes'), 7: ('object_graph_def', 'SavedObjectGraph')},
    'MetaInfoDef': {1: ('meta_graph_version', 'str'), 2: ('stripped_op_list', 'bytes'), 3: ('any_info', 'bytes'),
                    4: ('tags', 'str'), 5: ('tensorflow_version', 'str'), 6: ('tensorflow_git_version', 'str'),
                    7: ('stripped_default_attrs', 'int'), 8: ('function_aliases', 'bytes')},
    'CollectionEntry': {1: ('key', 'str'), 2: ('value', 'CollectionDef')},
    'CollectionDef': {1: ('node_list', 'NodeList')},
    'NodeList': {1: ('value', 'str')},
    'GraphDef': {1: ('node', 'NodeDef'), 2: ('library', 'FunctionDefLibrary'), 3: ('version', 'int'),
                 4: ('versions', 'VersionDef'), 5: ('debug_info', 'bytes')},
    'VersionDef': {1: ('producer', 'int'), 2: ('min_consumer', 'int'), 3: ('bad_consumers', 'int')},
    'NodeDef': {1: ('name', 'str'), 2: ('op', 'str'), 3: ('input', 'str'), 4: ('device', 'str'), 5: ('attr', 'AttrEntry'),
                6: ('experimental_debug_info', 'bytes'), 7: ('experimental_type', 'bytes')},
    'AttrEntry': {1: ('key', 'str'), 2: ('value', 'AttrValue')},
    'AttrValue': {1: ('list', 'ListValue'), 2: ('s', 'bytes'), 3: ('i', 'int'), 4: ('f', 'float'), 5: ('b', 'int'),
                  6: ('type', 'int'), 7: ('shape', 'TensorShapeProto'), 8: ('tensor', 'TensorProto'),
                  9: ('placeholder', 'str'), 10: ('func', 'NameAttrList')},
    'ListValue': {2: ('s', 'bytes'), 3: ('i', 'packed'), 4: ('f', 'bytes'), 5: ('b', 'packed'), 6: ('type', 'packed'),
                  7: ('shape', 'TensorShapeProto'), 8: ('tensor', 'TensorProto'), 9: ('func', 'NameAttrList')},
    'NameAttrList': {1: ('name', 'str'), 2: ('attr', 'AttrEntry')},
    'TensorShapeProto': {2: ('dim', 'Dim'), 3: ('unknown_rank', 'int')},
    'Dim': {1: ('size', 'int'), 2: ('name', 'str')},
    'TensorProto': {1: ('dtype', 'int'), 2: ('tensor_shape', 'TensorShapeProto'), 3: ('version_number', 'int'),
                    4: ('tensor_content', 'bytes'), 5: ('float_val', 'packed'), 7: ('int_val', 'packed'),
                    8: ('string_val', 'bytes'), 10: ('int64_val', 'packed'), 11: ('bool_val', 'packed')},
    'FunctionDefLibrary': {1: ('function', 'FunctionDef'), 2: ('gradient', 'GradientDef'),
                           3: ('registered_gradients', 'bytes')},
    'GradientDef': {1: ('function_name', 'str'), 2: ('gradient_func', 'str')},
    'FunctionDef': {1: ('signature', 'OpDef'), 5: ('attr', 'AttrEntry'), 7: ('arg_attr', 'ArgAttrEntry'),
                    8: ('resource_arg_unique_id', 'bytes'), 3: ('node_def', 'NodeDef'), 4: ('ret', 'StringEntry'),
                    6: ('control_ret', 'StringEntry')},
    'ArgAttrEntry': {1: ('key', 'int'), 2: ('value', 'ArgAttrs')},
    'ArgAttrs': {1: ('attr', 'AttrEntry')},
    'StringEntry': {1: ('key', 'str'), 2: ('value', 'str')},
    'OpDef': {1: ('name', 'str'), 2: ('input_arg', 'ArgDef'), 3: ('output_arg', 'ArgDef'), 20: ('control_output', 'str'),
              4: ('attr', 'bytes'), 8: ('deprecation', 'bytes'), 5: ('summary', 'str'), 6: ('description', 'str'),
              18: ('is_commutative', 'int'), 16: ('is_aggregate', 'int'), 17: ('is_stateful', 'int'),
              19: ('allows_uninitialized_input', 'int'), 21: ('is_distributed_communication', 'int')},
    'ArgDef': {1: ('name', 'str'), 2: ('description', 'str'), 3: ('type', 'int'), 4: ('type_attr', 'str'),
               5: ('number_attr', 'str'), 6: ('type_list_attr', 'str'), 7: ('handle_data', 'bytes'), 16: ('is_ref', 'int'),
               17: ('experimental_full_type', 'bytes')},
    'SaverDef': {1: ('filename_tensor_name', 'str'), 2: ('save_tensor_name', 'str'), 3: ('restore_op_name', 'str'),
                 4: ('max_to_keep', 'int'), 5: ('sharded', 'int'), 6: ('keep_checkpoint_every_n_hours', 'float'),
                 7: ('version', 'int')},
    'SignatureEntry': {1: ('key', 'str'), 2: ('value', 'SignatureDef')},
    'SignatureDef': {1: ('inputs', 'TensorInfoEntry'), 2: ('outputs', 'TensorInfoEntry'), 3: ('method_name', 'str'),
                     4: ('defaults', 'bytes')},
    'TensorInfoEntry': {1: ('key', 'str'), 2: ('value', 'TensorInfo')},
    'TensorInfo': {1: ('name', 'str'), 2: ('dtype', 'int'), 3: ('tensor_shape', 'TensorShapeProto'),
                   4: ('coo_sparse', 'bytes'), 5: ('composite_tensor', 'bytes')},
    'SavedObjectGraph': {1: ('nodes', 'SavedObject'), 2: ('concrete_functions', 'ConcreteEntry')},
    'ConcreteEntry': {1: ('key', 'str'), 2: ('value', 'SavedConcreteFunction')},
    'SavedObject': {1: ('children', 'ObjectReference'), 15: ('dependencies', 'ObjectReference'),
                    3: ('slot_variables', 'bytes'), 4: ('user_object', 'SavedUserObject'), 5: ('asset', 'bytes'),
                    6: ('function', 'bytes'), 7: ('variable', 'SavedVariable'),
                    8: ('bare_concrete_function', 'SavedBareConcreteFunction'), 9: ('constant', 'bytes'),
                    10: ('resource', 'bytes'), 11: ('saveable_objects', 'bytes'), 12: ('captured_tensor', 'bytes'),
                    13: ('registered_name', 'str'), 14: ('serialized_user_proto', 'bytes'),
                    16: ('registered_saver', 'str')},
    'ObjectReference': {1: ('node_id', 'int'), 2: ('local_name', 'str')},
    'SavedUserObject': {1: ('identifier', 'str'), 2: ('version', 'VersionDef'), 3: ('metadata', 'str')},
    'SavedVariable': {1: ('dtype', 'int'), 2: ('shape', 'TensorShapeProto'), 3: ('trainable', 'int'),
                      4: ('synchronization', 'int'), 5: ('aggregation', 'int'), 6: ('name', 'str'), 7: ('device', 'str')},
    'SavedBareConcreteFunction': {1: ('concrete_function_name', 'str'), 2: ('argument_keywords', 'str'),
                                  3: ('allowed_positional_arguments', 'int'), 4: ('function_spec', 'FunctionSpec')},
    'FunctionSpec': {1: ('fullargspec', 'StructuredValue'), 2: ('is_method', 'int'),
                     5: ('input_signature', 'StructuredValue'), 6: ('jit_compile', 'int')},
    'SavedConcreteFunction': {2: ('bound_inputs', 'packed'), 3: ('canonicalized_input_signature', 'StructuredValue'),
                              4: ('output_signature', 'StructuredValue')},
    'StructuredValue': {1: ('none_value', 'Empty'), 11: ('float64_value', 'float'), 12: ('int64_value', 'int'),
                        13: ('string_value', 'str'), 14: ('bool_value', 'int'), 31: ('tensor_shape_value', 'bytes'),
                        32: ('tensor_dtype_value', 'int'), 33: ('tensor_spec_value', 'TensorSpecProto'),
                        34: ('type_spec_value', 'bytes'), 51: ('list_value', 'SVList'), 52: ('tuple_value', 'SVList'),
                        53: ('dict_value', 'DictValue'), 54: ('named_tuple_value', 'NamedTupleValue')},
    'Empty': {},
    'SVList': {1: ('values', 'StructuredValue')},
    'DictValue': {1: ('fields', 'SVEntry')},
    'SVEntry': {1: ('key', 'str'), 2: ('value', 'StructuredValue')},
    'NamedTupleValue': {1: ('name', 'str'), 2: ('values', 'PairValue')},
    'PairValue': {1: ('key', 'str'), 2: ('value', 'StructuredValue')},
    'TensorSpecProto': {1: ('name', 'str'), 2: ('shape', 'TensorShapeProto'), 3: ('dtype', 'int')},
}

# Paths TensorFlow's file has and ours may lack, and why.
MAY_LACK = {
    'meta_info_def.stripped_op_list': 'the OpDefs of the ops used, for loaders without them registered; TF fills '
                                      'stripped defaults from its own registry',
    'meta_info_def.tensorflow_version': 'no TensorFlow wrote the file',
    'meta_info_def.tensorflow_git_version': 'no TensorFlow wrote the file',
    # the real file's model calls back into TensorFlow (call_tf): ops and attributes only it has
    '[Sin]': 'the call_tf callback function of the real model',
    '[EnsureShape]': 'the call_tf callback function of the real model',
    '[IdentityN]': 'jax2tf\'s custom gradient (with_gradient=True); ours is saved without gradients',
    'attr[function_list]': 'the real module calls one TF function back; ours calls none (the default, stripped)',
    'attr[_gradient_op_type]': 'jax2tf\'s custom gradient',
}
# Paths ours has and TensorFlow's file lacks, and why: the real file holds no variable.
MAY_ADD = {
    '[VarHandleOp]': 'a variable (the real model has none)',
    '[ReadVariableOp]': 'a variable read (the real model has none)',
    '[AssignVariableOp]': 'a variable restored (the real model has none)',
    'nodes.variable': 'SavedVariable of the object graph (the real model has none)',
    'bound_inputs': 'a concrete function capturing variables',
    '_read_only_resource_inputs].list.i': 'the variables a call only reads',
}


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b):
    i = 0
    while i < len(b):
        k, i = varint(b, i)
        n, wt = k >> 3, k & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            ln, i = varint(b, i)
            v, i = b[i:i + ln], i + ln
        else:
            raise ValueError('wire type %d' % wt)
        yield n, wt, v


def first(b, number):
    for n, _, v in fields(b):
        if n == number:
            return v
    return None


def paths(b, msg, prefix, out):
    """Adds the field paths of message `b` (of type `msg`) under `prefix` to `out`."""
    for n, wt, v in fields(b):
        name, kind = SCHEMA[msg].get(n, ('#%d' % n, 'bytes'))
        if kind in SCHEMA and wt == 2:
            if kind == 'NodeDef':
                name = '%s[%s]' % (name, first(v, 2).decode())
            elif kind == 'AttrEntry':
                name = 'attr[%s]' % first(v, 1).decode()
                v, kind = first(v, 2) or b'', 'AttrValue'
            path = prefix + '.' + name if prefix else name
            out.add(path)
            paths(v, kind, path, out)
        else:
            out.add(prefix + '.' + name if prefix else name)


def explained(path, table):
    return next((why for key, why in table.items() if key in path), None)


def main():
    ours, real = set(), set()
    paths(open(sys.argv[1], 'rb').read(), 'SavedModel', '', ours)
    paths(open(sys.argv[2], 'rb').read(), 'SavedModel', '', real)
    bad = 0
    print('%d field paths in ours, %d in %s, %d in both' % (len(ours), len(real), sys.argv[2], len(ours & real)))
    for path in sorted(real - ours):
        why = explained(path, MAY_LACK)
        bad += why is None
        print('  only in TensorFlow\'s: %s%s' % (path, ' (%s)' % why if why else '  <- UNEXPLAINED'))
    for path in sorted(ours - real):
        why = explained(path, MAY_ADD)
        bad += why is None
        print('  only in ours:         %s%s' % (path, ' (%s)' % why if why else '  <- UNEXPLAINED'))
    print('%d unexplained difference(s)' % bad)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
