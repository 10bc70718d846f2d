"""The names LLVM 19 prints for DWARF enumeration values in debug-info fields.

What: value -> name for tags (``dwarf::TagString``), source languages (``LanguageString``),
base-type encodings (``AttributeEncodingString``) and calling conventions
(``ConventionString``), as listed in LLVM 19.1.7's ``llvm/BinaryFormat/Dwarf.def`` (facts
transcribed into tables), and the emission and name-table kinds of ``DICompileUnit``. The
assembly parser turns a field written as a number into its name when the name is known, as
LLVM stores the number and its printer writes the name (``printDwarfEnum``); the verifier names
tags in its messages from the same table.
"""

from __future__ import annotations

DW_TAGS: dict[int, str] = {
    0x0: "DW_TAG_null", 0x1: "DW_TAG_array_type", 0x2: "DW_TAG_class_type", 0x3: "DW_TAG_entry_point",
    0x4: "DW_TAG_enumeration_type", 0x5: "DW_TAG_formal_parameter", 0x8: "DW_TAG_imported_declaration",
    0xA: "DW_TAG_label", 0xB: "DW_TAG_lexical_block", 0xD: "DW_TAG_member", 0xF: "DW_TAG_pointer_type",
    0x10: "DW_TAG_reference_type", 0x11: "DW_TAG_compile_unit", 0x12: "DW_TAG_string_type",
    0x13: "DW_TAG_structure_type", 0x15: "DW_TAG_subroutine_type", 0x16: "DW_TAG_typedef",
    0x17: "DW_TAG_union_type", 0x18: "DW_TAG_unspecified_parameters", 0x19: "DW_TAG_variant",
    0x1A: "DW_TAG_common_block", 0x1B: "DW_TAG_common_inclusion", 0x1C: "DW_TAG_inheritance",
    0x1D: "DW_TAG_inlined_subroutine", 0x1E: "DW_TAG_module", 0x1F: "DW_TAG_ptr_to_member_type",
    0x20: "DW_TAG_set_type", 0x21: "DW_TAG_subrange_type", 0x22: "DW_TAG_with_stmt",
    0x23: "DW_TAG_access_declaration", 0x24: "DW_TAG_base_type", 0x25: "DW_TAG_catch_block",
    0x26: "DW_TAG_const_type", 0x27: "DW_TAG_constant", 0x28: "DW_TAG_enumerator", 0x29: "DW_TAG_file_type",
    0x2A: "DW_TAG_friend", 0x2B: "DW_TAG_namelist", 0x2C: "DW_TAG_namelist_item",
    0x2D: "DW_TAG_packed_type", 0x2E: "DW_TAG_subprogram", 0x2F: "DW_TAG_template_type_parameter",
    0x30: "DW_TAG_template_value_parameter", 0x31: "DW_TAG_thrown_type", 0x32: "DW_TAG_try_block",
    0x33: "DW_TAG_variant_part", 0x34: "DW_TAG_variable", 0x35: "DW_TAG_volatile_type",
    0x36: "DW_TAG_dwarf_procedure", 0x37: "DW_TAG_restrict_type", 0x38: "DW_TAG_interface_type",
    0x39: "DW_TAG_namespace", 0x3A: "DW_TAG_imported_module", 0x3B: "DW_TAG_unspecified_type",
    0x3C: "DW_TAG_partial_unit", 0x3D: "DW_TAG_imported_unit", 0x3F: "DW_TAG_condition",
    0x40: "DW_TAG_shared_type", 0x41: "DW_TAG_type_unit", 0x42: "DW_TAG_rvalue_reference_type",
    0x43: "DW_TAG_template_alias", 0x44: "DW_TAG_coarray_type", 0x45: "DW_TAG_generic_subrange",
    0x46: "DW_TAG_dynamic_type", 0x47: "DW_TAG_atomic_type", 0x48: "DW_TAG_call_site",
    0x49: "DW_TAG_call_site_parameter", 0x4A: "DW_TAG_skeleton_unit", 0x4B: "DW_TAG_immutable_type",
    0x4081: "DW_TAG_MIPS_loop", 0x4101: "DW_TAG_format_label", 0x4102: "DW_TAG_function_template",
    0x4103: "DW_TAG_class_template", 0x4104: "DW_TAG_GNU_BINCL", 0x4105: "DW_TAG_GNU_EINCL",
    0x4106: "DW_TAG_GNU_template_template_param", 0x4107: "DW_TAG_GNU_template_parameter_pack",
    0x4108: "DW_TAG_GNU_formal_parameter_pack", 0x4109: "DW_TAG_GNU_call_site",
    0x410A: "DW_TAG_GNU_call_site_parameter", 0x4200: "DW_TAG_APPLE_property",
    0x4201: "DW_TAG_SUN_function_template", 0x4202: "DW_TAG_SUN_class_template",
    0x4203: "DW_TAG_SUN_struct_template", 0x4204: "DW_TAG_SUN_union_template",
    0x4205: "DW_TAG_SUN_indirect_inheritance", 0x4206: "DW_TAG_SUN_codeflags",
    0x4207: "DW_TAG_SUN_memop_info", 0x4208: "DW_TAG_SUN_omp_child_func",
    0x4209: "DW_TAG_SUN_rtti_descriptor", 0x420A: "DW_TAG_SUN_dtor_info", 0x420B: "DW_TAG_SUN_dtor",
    0x420C: "DW_TAG_SUN_f90_interface", 0x420D: "DW_TAG_SUN_fortran_vax_structure", 0x42FF: "DW_TAG_SUN_hi",
    0x4300: "DW_TAG_LLVM_ptrauth_type", 0x5101: "DW_TAG_ALTIUM_circ_type",
    0x5102: "DW_TAG_ALTIUM_mwa_circ_type", 0x5103: "DW_TAG_ALTIUM_rev_carry_type",
    0x5111: "DW_TAG_ALTIUM_rom", 0x6000: "DW_TAG_LLVM_annotation", 0x8004: "DW_TAG_GHS_namespace",
    0x8005: "DW_TAG_GHS_using_namespace", 0x8006: "DW_TAG_GHS_using_declaration",
    0x8007: "DW_TAG_GHS_template_templ_param", 0x8765: "DW_TAG_UPC_shared_type",
    0x8766: "DW_TAG_UPC_strict_type", 0x8767: "DW_TAG_UPC_relaxed", 0xA000: "DW_TAG_PGI_kanji_type",
    0xA020: "DW_TAG_PGI_interface_block", 0xB000: "DW_TAG_BORLAND_property",
    0xB001: "DW_TAG_BORLAND_Delphi_string", 0xB002: "DW_TAG_BORLAND_Delphi_dynamic_array",
    0xB003: "DW_TAG_BORLAND_Delphi_set", 0xB004: "DW_TAG_BORLAND_Delphi_variant",
}  # fmt: skip

DW_LANGS: dict[int, str] = {
    0x1: "DW_LANG_C89", 0x2: "DW_LANG_C", 0x3: "DW_LANG_Ada83", 0x4: "DW_LANG_C_plus_plus",
    0x5: "DW_LANG_Cobol74", 0x6: "DW_LANG_Cobol85", 0x7: "DW_LANG_Fortran77", 0x8: "DW_LANG_Fortran90",
    0x9: "DW_LANG_Pascal83", 0xA: "DW_LANG_Modula2", 0xB: "DW_LANG_Java", 0xC: "DW_LANG_C99",
    0xD: "DW_LANG_Ada95", 0xE: "DW_LANG_Fortran95", 0xF: "DW_LANG_PLI", 0x10: "DW_LANG_ObjC",
    0x11: "DW_LANG_ObjC_plus_plus", 0x12: "DW_LANG_UPC", 0x13: "DW_LANG_D", 0x14: "DW_LANG_Python",
    0x15: "DW_LANG_OpenCL", 0x16: "DW_LANG_Go", 0x17: "DW_LANG_Modula3", 0x18: "DW_LANG_Haskell",
    0x19: "DW_LANG_C_plus_plus_03", 0x1A: "DW_LANG_C_plus_plus_11", 0x1B: "DW_LANG_OCaml",
    0x1C: "DW_LANG_Rust", 0x1D: "DW_LANG_C11", 0x1E: "DW_LANG_Swift", 0x1F: "DW_LANG_Julia",
    0x20: "DW_LANG_Dylan", 0x21: "DW_LANG_C_plus_plus_14", 0x22: "DW_LANG_Fortran03",
    0x23: "DW_LANG_Fortran08", 0x24: "DW_LANG_RenderScript", 0x25: "DW_LANG_BLISS", 0x26: "DW_LANG_Kotlin",
    0x27: "DW_LANG_Zig", 0x28: "DW_LANG_Crystal", 0x2A: "DW_LANG_C_plus_plus_17",
    0x2B: "DW_LANG_C_plus_plus_20", 0x2C: "DW_LANG_C17", 0x2D: "DW_LANG_Fortran18", 0x2E: "DW_LANG_Ada2005",
    0x2F: "DW_LANG_Ada2012", 0x30: "DW_LANG_HIP", 0x31: "DW_LANG_Assembly", 0x32: "DW_LANG_C_sharp",
    0x33: "DW_LANG_Mojo", 0x34: "DW_LANG_GLSL", 0x35: "DW_LANG_GLSL_ES", 0x36: "DW_LANG_HLSL",
    0x37: "DW_LANG_OpenCL_CPP", 0x38: "DW_LANG_CPP_for_OpenCL", 0x39: "DW_LANG_SYCL", 0x40: "DW_LANG_Ruby",
    0x41: "DW_LANG_Move", 0x42: "DW_LANG_Hylo", 0x8001: "DW_LANG_Mips_Assembler",
    0x8E57: "DW_LANG_GOOGLE_RenderScript", 0xB000: "DW_LANG_BORLAND_Delphi",
}  # fmt: skip

DW_ATES: dict[int, str] = {
    0x1: "DW_ATE_address", 0x2: "DW_ATE_boolean", 0x3: "DW_ATE_complex_float", 0x4: "DW_ATE_float",
    0x5: "DW_ATE_signed", 0x6: "DW_ATE_signed_char", 0x7: "DW_ATE_unsigned", 0x8: "DW_ATE_unsigned_char",
    0x9: "DW_ATE_imaginary_float", 0xA: "DW_ATE_packed_decimal", 0xB: "DW_ATE_numeric_string",
    0xC: "DW_ATE_edited", 0xD: "DW_ATE_signed_fixed", 0xE: "DW_ATE_unsigned_fixed",
    0xF: "DW_ATE_decimal_float", 0x10: "DW_ATE_UTF", 0x11: "DW_ATE_UCS", 0x12: "DW_ATE_ASCII",
    0x81: "DW_ATE_HP_complex_float", 0x82: "DW_ATE_HP_float128", 0x83: "DW_ATE_HP_complex_float128",
    0x84: "DW_ATE_HP_floathpintel", 0x85: "DW_ATE_HP_imaginary_float90",
    0x86: "DW_ATE_HP_imaginary_float128",
}  # fmt: skip

DW_CCS: dict[int, str] = {
    0x1: "DW_CC_normal", 0x2: "DW_CC_program", 0x3: "DW_CC_nocall", 0x4: "DW_CC_pass_by_reference",
    0x5: "DW_CC_pass_by_value", 0x40: "DW_CC_GNU_renesas_sh", 0x41: "DW_CC_GNU_borland_fastcall_i386",
    0xB0: "DW_CC_BORLAND_safecall", 0xB1: "DW_CC_BORLAND_stdcall", 0xB2: "DW_CC_BORLAND_pascal",
    0xB3: "DW_CC_BORLAND_msfastcall", 0xB4: "DW_CC_BORLAND_msreturn", 0xB5: "DW_CC_BORLAND_thiscall",
    0xB6: "DW_CC_BORLAND_fastcall", 0xC0: "DW_CC_LLVM_vectorcall", 0xC1: "DW_CC_LLVM_Win64",
    0xC2: "DW_CC_LLVM_X86_64SysV", 0xC3: "DW_CC_LLVM_AAPCS", 0xC4: "DW_CC_LLVM_AAPCS_VFP",
    0xC5: "DW_CC_LLVM_IntelOclBicc", 0xC6: "DW_CC_LLVM_SpirFunction", 0xC7: "DW_CC_LLVM_OpenCLKernel",
    0xC8: "DW_CC_LLVM_Swift", 0xC9: "DW_CC_LLVM_PreserveMost", 0xCA: "DW_CC_LLVM_PreserveAll",
    0xCB: "DW_CC_LLVM_X86RegCall", 0xCC: "DW_CC_LLVM_M68kRTD", 0xCD: "DW_CC_LLVM_PreserveNone",
    0xCE: "DW_CC_LLVM_RISCVVectorCall", 0xCF: "DW_CC_LLVM_SwiftTail", 0xFF: "DW_CC_GDB_IBM_OpenCL",
}  # fmt: skip

EMISSION_KINDS: dict[int, str] = {0: "NoDebug", 1: "FullDebug", 2: "LineTablesOnly", 3: "DebugDirectivesOnly"}
NAME_TABLE_KINDS: dict[int, str] = {0: "Default", 1: "GNU", 2: "None", 3: "Apple"}

__all__ = ["DW_ATES", "DW_CCS", "DW_LANGS", "DW_TAGS", "EMISSION_KINDS", "NAME_TABLE_KINDS"]
